package dev.shardex.micrometer;

import dev.shardex.driver.events.ClusterView;
import dev.shardex.driver.events.ErrorTypes;
import dev.shardex.driver.events.RouteKind;
import dev.shardex.driver.events.StatementOutcome;
import dev.shardex.driver.events.StatementView;
import dev.shardex.driver.events.TransactionOutcome;
import dev.shardex.driver.sql.StatementType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * One cluster's meters. Each is built the first time its tags occur and kept in a map or array
 * keyed by what the event already holds (an enum ordinal, a shard id, an interned SHX id), so
 * recording never builds a meter id.
 *
 * <p>Cost per one-shard statement: the statement's timer record (two adders and a decaying
 * maximum, which reads the registry's clock) and, at its shard call's end, two adds to the
 * shard's {@link ShardCounters}, which its pool's tracker adds to as well. The shard call meter is
 * a function timer over them ({@code _count}, {@code _sum}): a timer's maximum would read the
 * clock once more per call, and the statement's timer already keeps the maximum a user waits.
 * The fan-out summary is recorded only where a statement's number of shard calls can vary
 * ({@link #varies}).
 */
final class ClusterMeters {
  private static final int ROUTES = RouteKind.values().length;
  private static final int OUTCOMES = StatementOutcome.values().length;
  /** The operations the driver names: its statement types' names, the very strings it passes. */
  private static final String[] OPERATIONS =
      java.util.Arrays.stream(StatementType.values()).map(StatementType::name).toArray(String[]::new);

  private final MeterRegistry registry;
  private final ClusterView view;
  private final Tags cluster;
  private final List<Meter> meters = new CopyOnWriteArrayList<>();
  /** Operations the driver's statement types do not name (none today). */
  private final Map<String, Timer[]> statements = new ConcurrentHashMap<>();
  /** The timers of each statement type's operation, by {@link #OPERATIONS} (see {@link #timers}). */
  private final Timer[][] byType = new Timer[OPERATIONS.length][ROUTES * OUTCOMES];
  private final DistributionSummary[] fanout = new DistributionSummary[ROUTES];
  private final Map<String, Counter> refusals = new ConcurrentHashMap<>();
  private final Map<String, Counter> errors = new ConcurrentHashMap<>();
  /** By shard id, copied on growth (a shard id below 0, which no catalog has, takes slot 0). */
  private volatile ShardCounters[] byShard = new ShardCounters[0];
  private final Map<String, Counter> shardErrors = new ConcurrentHashMap<>();
  private final Map<String, Timer> transactions = new ConcurrentHashMap<>();
  private final Counter recoveredCommit;
  private final Counter recoveredRollback;

  ClusterMeters(MeterRegistry registry, ClusterView view) {
    this.registry = registry;
    this.view = view;
    this.cluster = Tags.of("cluster", view.name());
    for (RouteKind r : RouteKind.values()) {
      fanout[r.ordinal()] = keep(DistributionSummary.builder(MeterNames.FANOUT).baseUnit("shards")
          .description("Shard calls per logical statement").tags(cluster).tag("route", r.tag()).register(registry));
    }
    recoveredCommit = keep(Counter.builder(MeterNames.RECOVERED).tags(cluster).tag("action", "commit").register(registry));
    recoveredRollback = keep(Counter.builder(MeterNames.RECOVERED).tags(cluster).tag("action", "rollback").register(registry));
    keep(Gauge.builder(MeterNames.LEASE_AGE, view, v -> Math.max(0, v.directory().leaseAgeMillis()) / 1000.0)
        .baseUnit("seconds").description("Since the last successful directory poll began; writes stop at shardex.leaseMs")
        .tags(cluster).register(registry));
    keep(Gauge.builder(MeterNames.APPLIED_CHANGE, view, v -> v.directory().appliedChange()).tags(cluster).register(registry));
    keep(Gauge.builder(MeterNames.KEYS_MOVING, view, v -> v.directory().keysMoving()).tags(cluster).register(registry));
    Tags keys = cluster.and("cache", "shardex.keys");
    keep(FunctionCounter.builder(MeterNames.CACHE_GETS, view, v -> v.directory().keys().hits()).tags(keys)
        .tag("result", "hit").register(registry));
    keep(FunctionCounter.builder(MeterNames.CACHE_GETS, view, v -> v.directory().keys().misses()).tags(keys)
        .tag("result", "miss").register(registry));
    keep(Gauge.builder(MeterNames.CACHE_SIZE, view, v -> v.directory().keys().size()).tags(keys).register(registry));
  }

  ClusterView view() {
    return view;
  }

  private <M extends Meter> M keep(M meter) {
    meters.add(meter);
    return meter;
  }

  void statement(StatementView s) {
    int at = s.route().ordinal() * OUTCOMES + s.outcome().ordinal();
    Timer[] byOperation = timers(s.operation());
    Timer t = byOperation[at];
    if (t == null) {
      t = keep(Timer.builder(MeterNames.STATEMENTS).description("Logical statements, as the application sees them")
          .tags(cluster).tag("operation", s.operation().toLowerCase(Locale.ROOT)).tag("route", s.route().tag())
          .tag("outcome", s.outcome().tag()).register(registry));
      byOperation[at] = t; // a race registers the same meter twice: the registry returns the first
    }
    t.record(s.elapsedNanos(), TimeUnit.NANOSECONDS);
    int calls = s.shardCalls();
    if (varies(s.route(), calls)) {
      fanout[s.route().ordinal()].record(calls);
    }
    if (s.outcome() == StatementOutcome.REFUSED) {
      count(refusals, MeterNames.REFUSALS, s.errorType());
    } else if (s.outcome() == StatementOutcome.ERROR) {
      count(errors, MeterNames.ERRORS, s.errorType());
    }
  }

  /**
   * The statement timers of an operation, by route and outcome. An operation's name is its
   * statement type's enum constant name, so it is found by identity in a short array of those
   * names (SELECT first): no hashing, no map's table and node to fetch per statement. An equal
   * string that is not that instance finds the same timers by equals; any other name, the map.
   */
  @SuppressWarnings("ReferenceEquality") // on purpose: the identity check is the fast path, equals follows
  private Timer[] timers(String operation) {
    for (int i = 0; i < OPERATIONS.length; i++) {
      if (OPERATIONS[i] == operation) {
        return byType[i];
      }
    }
    for (int i = 0; i < OPERATIONS.length; i++) {
      if (OPERATIONS[i].equals(operation)) {
        return byType[i];
      }
    }
    Timer[] other = statements.get(operation);
    return other != null ? other : statements.computeIfAbsent(operation, op -> new Timer[ROUTES * OUTCOMES]);
  }

  /**
   * Whether a statement's fan-out is recorded: always for the routes that reach several shards,
   * and for the others only when it differs from theirs (one call for one_shard: more after a key
   * moved under it and it routed again, none when its shard gave no connection; none for local
   * and none). The rest, by far the most statements, are the route's statements counted by
   * {@code shardex.statements} less this summary's count.
   */
  static boolean varies(RouteKind route, int calls) {
    // comparisons, not a switch: an enum switch reads a lookup array, one more cache line per statement
    if (route == RouteKind.ONE_SHARD) {
      return calls != 1;
    }
    return (route != RouteKind.LOCAL && route != RouteKind.NONE) || calls != 0;
  }

  private void count(Map<String, Counter> by, String name, String type) {
    Counter c = by.get(type);
    if (c == null) {
      c = by.computeIfAbsent(type, k -> keep(Counter.builder(name).tags(cluster).tag("error.type", k).register(registry)));
    }
    c.increment();
  }

  void shardCall(int shard, long nanos) {
    counters(shard).add(ShardCounters.CALLS, nanos);
  }

  /** A shard's counters (made, with its call meter, the first time the shard is seen). */
  ShardCounters counters(int shard) {
    ShardCounters[] by = byShard;
    ShardCounters c = shard >= 0 && shard < by.length ? by[shard] : null;
    return c != null ? c : made(shard);
  }

  private synchronized ShardCounters made(int shard) {
    int at = Math.max(shard, 0);
    ShardCounters[] by = byShard;
    if (at < by.length && by[at] != null) {
      return by[at];
    }
    ShardCounters c = new ShardCounters();
    keep(FunctionTimer.builder(MeterNames.SHARD_CALLS, c, k -> k.count(ShardCounters.CALLS),
        k -> k.total(ShardCounters.CALLS), TimeUnit.NANOSECONDS).description("From taking a shard connection to giving it back")
        .tags(cluster).tag("shard", Integer.toString(shard)).register(registry));
    ShardCounters[] grown = java.util.Arrays.copyOf(by, Math.max(by.length, at + 1));
    grown[at] = c;
    byShard = grown; // a small array, read without a lock: its length and first slots share a cache line
    return c;
  }

  void shardError(int shard, SQLException error) {
    if (ErrorTypes.shardHealth(error)) {
      String type = ErrorTypes.of(error);
      shardErrors.computeIfAbsent(shard + "|" + type, k -> keep(Counter.builder(MeterNames.SHARD_ERRORS).tags(cluster)
          .tag("shard", Integer.toString(shard)).tag("error.type", type).register(registry))).increment();
    }
  }

  void transaction(String mode, int shards, TransactionOutcome outcome, long nanos) {
    String scope = shards > 1 ? "multi_shard" : "one_shard";
    transactions.computeIfAbsent(mode + "|" + scope + "|" + outcome.tag(), k -> keep(Timer.builder(MeterNames.TRANSACTIONS)
        .description("The end (commit or rollback) of transactions that ran on a shard").tags(cluster).tag("mode", mode)
        .tag("scope", scope).tag("outcome", outcome.tag()).register(registry))).record(nanos, TimeUnit.NANOSECONDS);
  }

  void recovered(int committed, int rolledBack) {
    recoveredCommit.increment(committed);
    recoveredRollback.increment(rolledBack);
  }

  void remove() {
    meters.forEach(registry::remove);
    meters.clear();
  }
}
