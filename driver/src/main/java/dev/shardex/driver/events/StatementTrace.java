package dev.shardex.driver.events;

import dev.shardex.directory.catalog.Shard;
import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.SqlLexer;
import dev.shardex.driver.sql.StatementType;
import dev.shardex.driver.sql.TableRef;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.sql.SQLException;

/**
 * The running logical statement of one connection, as listeners see it. One per connection,
 * reused statement after statement, so tracing a statement allocates nothing of its own; a
 * statement the pipeline runs inside another (a cross-shard join's sides) is part of the outer one.
 * Shard calls may count from fan-out threads, hence the atomic counter (a field of this object, not
 * an AtomicInteger of its own: one cache line less per statement).
 *
 * <p>It also holds one running shard call's listener state and start (a span, the time a meter
 * needs at the call's end), so that a one-shard statement's call needs no map entry: the first
 * call a statement starts takes the slot, and any other call that runs while it is taken (a
 * scatter's others, a result set left open across statements) goes to {@link ClusterEvents}' map.
 * The slot is taken by compare-and-set on {@code heldCall}; the state and start written after it
 * are read only by the same call's end, which comes after its start.
 */
public final class StatementTrace implements StatementView {
  private static final VarHandle HELD_CALL;
  private static final VarHandle SHARD_FAILED;
  private static final VarHandle CALLS;
  private static final VarHandle ENDED_SHARD;

  static {
    try {
      HELD_CALL = MethodHandles.lookup().findVarHandle(StatementTrace.class, "heldCall", Object.class);
      SHARD_FAILED = MethodHandles.lookup().findVarHandle(StatementTrace.class, "shardFailed", boolean.class);
      CALLS = MethodHandles.lookup().findVarHandle(StatementTrace.class, "calls", int.class);
      ENDED_SHARD = MethodHandles.lookup().findVarHandle(StatementTrace.class, "endedShard", Shard.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ClusterEvents events;
  private final ClusterEvents.Statements session;
  private RouteTemplate template;
  private String sql;
  private String summary;
  private String queryText;
  private RouteKind route;
  private volatile int calls;
  private volatile boolean shardFailed;
  private StatementOutcome outcome;
  private String errorType;
  private SQLException error;
  private long start;
  private long elapsed;
  private Object started;
  private volatile Object heldCall;
  private Object heldState;
  private long heldStart;
  /** Whether the held call is this statement's (a result set left open holds the last one's). */
  private boolean heldHere;
  /**
   * A one-shard statement's call that ended inside it, untold: its shard and start, told at the
   * statement's end, or when it routes again or another call starts (see {@link #endedShard}).
   */
  private volatile Shard endedShard;
  private long endedStart;

  public StatementTrace(ClusterEvents events, ClusterEvents.Statements session) {
    this.events = events;
    this.session = session;
  }

  /** {@code listener}: the one to tell the start, or null when none listens for starts. */
  void begin(RouteTemplate t, String text, ShardexListener listener) {
    template = t;
    sql = text;
    summary = null;
    queryText = null;
    route = local(t.type()) ? RouteKind.LOCAL : RouteKind.NONE;
    // release stores, not volatile ones (no fence): what reads them on another thread, a fan-out
    // thread's call, was handed its task after this, which orders it after these writes
    CALLS.setRelease(this, 0);
    SHARD_FAILED.setRelease(this, false);
    outcome = null;
    errorType = null;
    error = null;
    elapsed = 0;
    heldHere = false;
    ENDED_SHARD.setRelease(this, (Shard) null);
    start = System.nanoTime();
    started = listener == null ? null : listener.statementStarted(this);
  }

  private static boolean local(StatementType type) {
    return type == StatementType.SESSION || type == StatementType.TRANSACTION || type == StatementType.EXPLAIN_ROUTE;
  }

  Object started() {
    return started;
  }

  /** The route stage chose a plan (a retry after a move routes again: the last plan counts). */
  public void routed(Fanout fanout, int shards) {
    if (endedShard != null) { // it routes again (its key moved): the call before kept its end, told now
      events.kept(this, events.listener(), System.nanoTime());
    }
    if (route != RouteKind.JOIN) { // a join's sides route too; the statement stays a join
      route = kind(fanout, shards);
    }
  }

  /** The catalog's shard count is read only for the plans that need it (not a one-shard one's). */
  private RouteKind kind(Fanout fanout, int shards) {
    return switch (fanout) {
      case ONE -> RouteKind.ONE_SHARD;
      case MERGE -> RouteKind.MERGED;
      case JOIN -> RouteKind.JOIN;
      case HOLD -> RouteKind.HELD;
      case DDL -> RouteKind.ALL;
      case CONCAT, SUM, REPLICATE -> shards >= events.cluster().shardIds().size() ? RouteKind.ALL : RouteKind.SEVERAL;
    };
  }

  void called() {
    CALLS.getAndAdd(this, 1);
  }

  /** Holds this call's state and start here, if no other call holds the slot. */
  boolean hold(Object call, Object state, long start) {
    if (!HELD_CALL.compareAndSet(this, null, call)) {
      return false;
    }
    heldState = state;
    heldStart = start;
    heldHere = true;
    return true;
  }

  /**
   * The held call ended (and was released) while this statement runs: keeps its end for the
   * statement's, if this is a one-shard statement's own call, it kept no listener state and no
   * other call's end is kept. Its end is then the statement's end, read once for both: the call
   * lasted until its connection was given back and the statement returned, a few hundred
   * nanoseconds more than at the lease's close, and one clock read less (a write's call ends
   * inside its statement; a query's when its rows were read, after it).
   */
  boolean keepsEnd(Shard shard, Object state, long start) {
    if (!heldHere || state != null || route != RouteKind.ONE_SHARD || endedShard != null) {
      return false;
    }
    endedStart = start;
    ENDED_SHARD.setRelease(this, shard); // after its start: whoever takes the shard reads that start
    return true;
  }

  /**
   * The kept call's shard (see {@link #keepsEnd}), or null; taken once, when its end is told. Only
   * the statement's own thread takes it (at a re-route, its end, or a call it starts: a one-shard
   * statement fans out to no other thread), so a plain take, no atomic swap.
   */
  Shard endedShard() {
    Shard s = endedShard;
    if (s != null) {
      ENDED_SHARD.setRelease(this, (Shard) null);
    }
    return s;
  }

  long endedStart() {
    return endedStart;
  }

  boolean holds(Object call) {
    return heldCall == call;
  }

  /** The held call's state (call {@link #holds} first). */
  Object heldState() {
    return heldState;
  }

  long heldStart() {
    return heldStart;
  }

  /** The held call ended: the slot is free for the next one. */
  void release() {
    heldState = null;
    HELD_CALL.setRelease(this, (Object) null); // the next call's compare-and-set sees it, or takes the map
  }

  void shardFailed() {
    shardFailed = true;
  }

  /** The statement failed: refused by Shardex, or failed by a shard (its calls said so) or anything else. */
  public void failed(Throwable e) {
    error = e instanceof SQLException sql ? sql : null;
    errorType = ErrorTypes.of(e);
    outcome = ErrorTypes.refusal(e, shardFailed) ? StatementOutcome.REFUSED : StatementOutcome.ERROR;
  }

  /** Called once, whatever happened: tells the listener and frees the connection's slot. */
  public void end() {
    elapsed = System.nanoTime() - start;
    if (outcome == null) {
      outcome = StatementOutcome.OK;
    }
    events.ended(this, session);
  }

  @Override
  public ClusterView cluster() {
    return events.cluster();
  }

  @Override
  public String operation() {
    return template.type().name();
  }

  @Override
  public String table() {
    TableRef target = template.targetTable();
    if (target == null && !template.tables().isEmpty()) {
      target = template.tables().get(0);
    }
    return target == null ? null : target.name();
  }

  @Override
  public int tableCount() {
    java.util.List<TableRef> tables = template.tables();
    int n = 0;
    for (int i = 0; i < tables.size(); i++) {
      boolean seen = false;
      for (int j = 0; j < i && !seen; j++) {
        seen = tables.get(j).name().equals(tables.get(i).name());
      }
      n += seen ? 0 : 1;
    }
    return n;
  }

  @Override
  public String summary() {
    if (summary == null) {
      StringBuilder s = new StringBuilder(operation());
      for (TableRef t : template.tables()) {
        if (s.indexOf(" " + t.name()) < 0 && s.length() + t.name().length() < 254) {
          s.append(' ').append(t.name());
        }
      }
      summary = s.toString();
    }
    return summary;
  }

  @Override
  public String queryText() {
    if (queryText == null) {
      queryText = sql == null ? null : SqlLexer.normalise(sql).text();
    }
    return queryText;
  }

  @Override
  public RouteKind route() {
    return route;
  }

  @Override
  public int shardCalls() {
    return calls;
  }

  @Override
  public StatementOutcome outcome() {
    return outcome;
  }

  @Override
  public String errorType() {
    return errorType;
  }

  @Override
  public SQLException error() {
    return error;
  }

  @Override
  public long startNanos() {
    return start;
  }

  @Override
  public long elapsedNanos() {
    return elapsed;
  }
}
