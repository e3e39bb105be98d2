package dev.shardex.driver.events;

import com.zaxxer.hikari.HikariConfig;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.driver.sql.RouteTemplate;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * One cluster's telemetry switch: the listeners in effect (the cluster's own JMX beans and every
 * {@link ShardexTelemetry#register registered} one), or none. Every method starts with one read of
 * that field, so telemetry that is off costs a null check. A shard call's listener state (a span)
 * is kept here by call, and only when a listener returned some.
 */
public final class ClusterEvents {
  /** A cluster with telemetry off for good (shardex.telemetry=none, or a session outside a cluster). */
  public static final ClusterEvents OFF = new ClusterEvents(null, java.util.List.of(), false);

  private final ClusterView cluster;
  private final java.util.List<ShardexListener> own;
  private final boolean enabled;
  private volatile ShardexListener listener;
  private final Map<Object, Object> calls = new ConcurrentHashMap<>();
  /** Set once a listener returned a shard call state: until then ends look nothing up. */
  private volatile boolean callStates;

  /**
   * A cluster's switch for shardex.telemetry ({@code jmx}, {@code listeners} or {@code none}) and
   * shardex.slowLogMs (0: no slow-statement log).
   */
  public static ClusterEvents of(String mode, long slowLogMs, ClusterView facts) {
    if (mode.equals("none")) {
      return new ClusterEvents(facts, java.util.List.of(), false);
    }
    java.util.List<ShardexListener> own = new java.util.ArrayList<>(2);
    if (mode.equals("jmx")) {
      own.add(new dev.shardex.driver.jmx.ClusterBeans());
    }
    if (slowLogMs > 0) {
      own.add(new SlowLog(slowLogMs, SlowLog.Sampler.system()));
    }
    return new ClusterEvents(facts, own, true);
  }

  /** {@code own}: the cluster's JMX beans and slow-statement log, if on; {@code enabled} false ignores every listener. */
  public ClusterEvents(ClusterView cluster, java.util.List<ShardexListener> own, boolean enabled) {
    this.cluster = cluster;
    this.own = own;
    this.enabled = enabled;
  }

  /** Starts telling listeners, registered ones included; {@link #close} stops. */
  public void open() {
    if (enabled) {
      ShardexTelemetry.opened(this);
    }
  }

  public ClusterView cluster() {
    return cluster;
  }

  public boolean on() {
    return listener != null;
  }

  /** The registered listeners changed: recompute the one in effect. */
  void refresh(ShardexListener[] registered) {
    listener = Listeners.of(own, registered);
  }

  java.util.List<ShardexListener> own() {
    return own;
  }

  /**
   * A logical statement begins on a connection: its trace (the session's, reused), or null when
   * nothing listens or another statement of the same connection is running (this one is part of it).
   */
  public StatementTrace begin(Statements session, RouteTemplate t, String sql) {
    ShardexListener l = listener;
    if (l == null || session.running() != null) {
      return null;
    }
    StatementTrace trace = session.trace(this);
    session.running(trace);
    trace.begin(t, sql, l);
    return trace;
  }

  void ended(StatementTrace trace, Statements session) {
    session.running(null);
    ShardexListener l = listener;
    if (l != null) {
      l.statementEnded(trace, trace.started());
    }
  }

  /** A physical connection of the shard was taken, for the running statement (or none). */
  public void callStarted(StatementTrace statement, Shard shard, Object call, Connection c) {
    ShardexListener l = listener;
    if (l == null) {
      return;
    }
    if (statement != null) {
      statement.called();
    }
    if (cluster instanceof ClusterFacts facts) {
      facts.learn(c);
    }
    Object state = l.shardCallStarted(cluster, statement, statement == null ? null : statement.started(), shard);
    if (state != null) {
      callStates = true;
      calls.put(call, state);
    }
  }

  public void callFailed(StatementTrace statement, Shard shard, Object call, SQLException error) {
    ShardexListener l = listener;
    if (l == null) {
      return;
    }
    if (statement != null) {
      statement.shardFailed();
    }
    l.shardCallFailed(cluster, callStates ? calls.get(call) : null, shard, error);
  }

  /** No connection of the shard came (SHX1401, SHX1410, SHX1412): a failed call that never started. */
  public void unreachable(Shard shard, SQLException error) {
    ShardexListener l = listener;
    if (l != null) {
      l.shardCallFailed(cluster, null, shard, error);
    }
  }

  public void callEnded(Shard shard, Object call) {
    ShardexListener l = listener;
    if (l != null) {
      l.shardCallEnded(cluster, callStates ? calls.remove(call) : null, shard);
    }
  }

  public void transactionEnded(Enum<?> mode, int shards, TransactionOutcome outcome, SQLException error, long nanos) {
    ShardexListener l = listener;
    if (l != null && shards > 0) {
      l.transactionEnded(cluster, mode.name().toLowerCase(java.util.Locale.ROOT), shards, outcome, error, nanos);
    }
  }

  public void recovered(int committed, int rolledBack) {
    ShardexListener l = listener;
    if (l != null && committed + rolledBack > 0) {
      l.recovered(cluster, committed, rolledBack);
    }
  }

  public void poolCreating(int shard, HikariConfig config) {
    ShardexListener l = listener;
    if (l != null) {
      l.poolCreating(cluster, shard, config);
    }
  }

  public Executor fanout(Executor pool) {
    ShardexListener l = listener;
    return l == null ? pool : l.fanout(pool);
  }

  /** Stops telling listeners; they hear clusterClosed. */
  public void close() {
    if (enabled) {
      ShardexTelemetry.closed(this);
    }
    listener = null;
  }

  /** Where a connection keeps its running statement: the executor's session. */
  public interface Statements {
    StatementTrace running();

    void running(StatementTrace trace);

    /** This connection's trace, made on first use. */
    StatementTrace trace(ClusterEvents events);
  }
}
