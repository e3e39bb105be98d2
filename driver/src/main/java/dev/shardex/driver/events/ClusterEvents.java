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
 * and start (when a listener hears call ends) are kept only while it runs, and only when there is
 * one: in the running statement's trace for its first call, so a one-shard statement allocates
 * nothing here, and in a map keyed by the call for the others.
 */
public final class ClusterEvents {
  /** A cluster with telemetry off for good (shardex.telemetry=none, or a session outside a cluster). */
  public static final ClusterEvents OFF = new ClusterEvents(null, java.util.List.of(), null, false);
  /** In effect when only the slow log listens: statements are traced, nothing else hears them. */
  private static final ShardexListener NOBODY = new ShardexListener() {};
  /** A call's start when no listener times calls. */
  private static final long NOT_TIMED = Long.MIN_VALUE;

  private final ClusterView cluster;
  private final java.util.List<ShardexListener> own;
  private final SlowLog slow;
  private final boolean enabled;
  private volatile ShardexListener listener;
  private final Map<Object, Held> calls = new ConcurrentHashMap<>();
  /** Set once a call was held in {@link #calls}: until then ends look nothing up there. */
  private volatile boolean callStates;
  /**
   * Which events the listener in effect hears: set on refresh before the listener, so whoever
   * reads the listener first sees its hearing (a listener that leaves may miss a call or two).
   */
  private volatile boolean startsStatements;
  private volatile boolean startsCalls;
  /** Whether a listener hears call ends and uses their time, so calls are timed. */
  private volatile boolean timesCalls;
  /** The fan-out executor as the listeners wrapped it, for the listener and pool it was made for. */
  private volatile Fanout fanout;

  /** A shard call's listener state and start, held while it runs. */
  private record Held(Object state, long start) {}

  private record Fanout(ShardexListener listener, Executor pool, Executor wrapped) {}

  /**
   * A cluster's switch for shardex.telemetry ({@code jmx}, {@code listeners} or {@code none}) and
   * shardex.slowLogMs (0: no slow-statement log).
   */
  public static ClusterEvents of(String mode, long slowLogMs, ClusterView facts) {
    if (mode.equals("none")) {
      return new ClusterEvents(facts, java.util.List.of(), null, false);
    }
    java.util.List<ShardexListener> own =
        mode.equals("jmx") ? java.util.List.of(new dev.shardex.driver.jmx.ClusterBeans()) : java.util.List.of();
    return new ClusterEvents(facts, own, slowLogMs > 0 ? new SlowLog(slowLogMs, SlowLog.Sampler.system()) : null, true);
  }

  /**
   * {@code own}: the cluster's JMX beans, if on; {@code slow}: its slow-statement log, or null;
   * {@code enabled} false ignores every listener. The slow log is told directly, not through
   * {@link Listeners}: with it among them, a lone registered listener (shardex-micrometer) would
   * be reached through a loop of interface calls on every statement.
   */
  private ClusterEvents(ClusterView cluster, java.util.List<ShardexListener> own, SlowLog slow, boolean enabled) {
    this.cluster = cluster;
    this.own = own;
    this.slow = slow;
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
    ShardexListener l = Listeners.of(own, registered);
    Listeners.Hearing h = l == null ? Listeners.Hearing.NOTHING : Listeners.Hearing.of(l);
    startsStatements = h.statementStarts();
    startsCalls = h.callStarts();
    timesCalls = h.callTimes();
    listener = l == null && slow != null ? NOBODY : l;
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
    trace.begin(t, sql, startsStatements ? l : null);
    return trace;
  }

  void ended(StatementTrace trace, Statements session) {
    session.running(null);
    ShardexListener l = listener;
    kept(trace, l, trace.startNanos() + trace.elapsedNanos()); // its call ended inside it: told first
    if (l != null) {
      if (slow != null) {
        slow.statementEnded(trace, null);
      }
      l.statementEnded(trace, trace.started());
    }
  }

  /** Tells the end of the call the statement kept ({@link StatementTrace#keepsEnd}), if any, as {@code now}. */
  void kept(StatementTrace trace, ShardexListener l, long now) {
    Shard shard = trace.endedShard();
    if (shard != null && l != null) {
      l.shardCallEnded(cluster, null, shard, now - trace.endedStart());
    }
  }

  ShardexListener listener() {
    return listener;
  }

  /**
   * A physical connection of the shard was taken, for the session's running statement (or none).
   * The listener's state for the call, and its start when a listener times calls, are held by the
   * running statement's trace, else (several calls at once, or none running) in {@link #calls}.
   */
  public void callStarted(Statements session, Shard shard, Object call, Connection c) {
    ShardexListener l = listener;
    if (l == null) {
      return;
    }
    StatementTrace statement = session.running();
    if (statement != null) {
      statement.called();
    }
    if (cluster instanceof ClusterFacts facts) {
      facts.learn(c);
    }
    Object state = startsCalls
        ? l.shardCallStarted(cluster, statement, statement == null ? null : statement.started(), shard) : null;
    boolean timed = timesCalls;
    if (state != null || timed) {
      long start = timed ? System.nanoTime() : NOT_TIMED;
      if (statement != null && timed) {
        kept(statement, l, start); // a call before this one kept its end (a lookup's write follows): it lasted until now
      }
      if (statement == null || !statement.hold(call, state, start)) {
        callStates = true;
        calls.put(call, new Held(state, start));
      }
    }
  }

  public void callFailed(Statements session, Shard shard, Object call, SQLException error) {
    ShardexListener l = listener;
    if (l == null) {
      return;
    }
    StatementTrace statement = session.running();
    if (statement != null) {
      statement.shardFailed();
    }
    StatementTrace trace = session.traced();
    Object state;
    if (trace != null && trace.holds(call)) {
      state = trace.heldState();
    } else {
      Held h = callStates ? calls.get(call) : null;
      state = h == null ? null : h.state();
    }
    l.shardCallFailed(cluster, state, shard, error);
  }

  /** No connection of the shard came (SHX1401, SHX1410, SHX1412): a failed call that never started. */
  public void unreachable(Shard shard, SQLException error) {
    ShardexListener l = listener;
    if (l != null) {
      l.shardCallFailed(cluster, null, shard, error);
    }
  }

  public void callEnded(Statements session, Shard shard, Object call) {
    ShardexListener l = listener;
    if (l == null) {
      return;
    }
    StatementTrace trace = session.traced();
    Object state = null;
    long start = NOT_TIMED;
    if (trace != null && trace.holds(call)) {
      state = trace.heldState();
      start = trace.heldStart();
      trace.release();
      if (start != NOT_TIMED && session.running() == trace && trace.keepsEnd(shard, state, start)) {
        return; // told at the statement's end, with its clock read
      }
    } else if (callStates) {
      Held h = calls.remove(call);
      if (h != null) {
        state = h.state();
        start = h.start();
      }
    }
    l.shardCallEnded(cluster, state, shard, start == NOT_TIMED ? -1 : System.nanoTime() - start);
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

  /** The executor that runs a statement's shards: the listeners' wrapping of it, made once per listener set. */
  public Executor fanout(Executor pool) {
    ShardexListener l = listener;
    if (l == null) {
      return pool;
    }
    Fanout f = fanout;
    if (f == null || f.listener() != l || f.pool() != pool) {
      f = new Fanout(l, pool, l.fanout(pool));
      fanout = f;
    }
    return f.wrapped();
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

    /** This connection's trace if one was made, else null (never makes one: any thread may ask). */
    StatementTrace traced();
  }
}
