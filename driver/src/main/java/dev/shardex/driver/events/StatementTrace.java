package dev.shardex.driver.events;

import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.SqlLexer;
import dev.shardex.driver.sql.StatementType;
import dev.shardex.driver.sql.TableRef;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The running logical statement of one connection, as listeners see it. One per connection,
 * reused statement after statement, so tracing a statement allocates nothing of its own; a
 * statement the pipeline runs inside another (a cross-shard join's sides) is part of the outer one.
 * Shard calls may count from fan-out threads, hence the atomic counter.
 */
public final class StatementTrace implements StatementView {
  private final ClusterEvents events;
  private final ClusterEvents.Statements session;
  private RouteTemplate template;
  private String sql;
  private String summary;
  private String queryText;
  private RouteKind route;
  private final AtomicInteger calls = new AtomicInteger();
  private volatile boolean shardFailed;
  private StatementOutcome outcome;
  private String errorType;
  private SQLException error;
  private long start;
  private long elapsed;
  private Object started;

  public StatementTrace(ClusterEvents events, ClusterEvents.Statements session) {
    this.events = events;
    this.session = session;
  }

  void begin(RouteTemplate t, String text, ShardexListener listener) {
    template = t;
    sql = text;
    summary = null;
    queryText = null;
    route = local(t.type()) ? RouteKind.LOCAL : RouteKind.NONE;
    calls.set(0);
    shardFailed = false;
    outcome = null;
    errorType = null;
    error = null;
    elapsed = 0;
    start = System.nanoTime();
    started = listener.statementStarted(this);
  }

  private static boolean local(StatementType type) {
    return type == StatementType.SESSION || type == StatementType.TRANSACTION || type == StatementType.EXPLAIN_ROUTE;
  }

  Object started() {
    return started;
  }

  /** The route stage chose a plan (a retry after a move routes again: the last plan counts). */
  public void routed(Fanout fanout, int shards) {
    if (route != RouteKind.JOIN) { // a join's sides route too; the statement stays a join
      route = kind(fanout, shards, events.cluster().shardIds().size());
    }
  }

  static RouteKind kind(Fanout fanout, int shards, int all) {
    return switch (fanout) {
      case ONE -> RouteKind.ONE_SHARD;
      case MERGE -> RouteKind.MERGED;
      case JOIN -> RouteKind.JOIN;
      case HOLD -> RouteKind.HELD;
      case DDL -> RouteKind.ALL;
      case CONCAT, SUM, REPLICATE -> shards >= all ? RouteKind.ALL : RouteKind.SEVERAL;
    };
  }

  void called() {
    calls.incrementAndGet();
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
    return calls.get();
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
