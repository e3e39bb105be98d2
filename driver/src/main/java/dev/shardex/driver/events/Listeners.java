package dev.shardex.driver.events;

import com.zaxxer.hikari.HikariConfig;
import dev.shardex.directory.catalog.Shard;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Several listeners as one. Each event goes only to the listeners that override its method (the
 * JMX beans hear shard call starts, not their ends), so a listener that ignores an event costs
 * nothing there. Each listener gets its own state back: as it is when it is
 * the only one that hears that kind of event, else in an {@code Object[]} (one slot per
 * listener) made only when some listener returned a state.
 */
final class Listeners implements ShardexListener {
  private final ShardexListener[] all;
  private final boolean[] statements;
  /** Of those, the ones that override statementStarted (the others' default returns null), statementEnded. */
  private final boolean[] starts;
  private final boolean[] ends;
  private final boolean[] calls;
  /** Of those, the ones that override shardCallStarted, shardCallEnded, shardCallFailed. */
  private final boolean[] callStarts;
  private final boolean[] callEnds;
  private final boolean[] callFails;
  /** What any of them hears. */
  private final Hearing hearing;
  /** The one listener that hears statements (or shard calls), or -1 when several do. */
  private final int onlyStatements;
  private final int onlyCalls;

  private Listeners(ShardexListener[] all) {
    this.all = all;
    this.statements = new boolean[all.length];
    this.starts = new boolean[all.length];
    this.ends = new boolean[all.length];
    this.calls = new boolean[all.length];
    this.callStarts = new boolean[all.length];
    this.callEnds = new boolean[all.length];
    this.callFails = new boolean[all.length];
    Hearing any = Hearing.NOTHING;
    for (int i = 0; i < all.length; i++) {
      Hearing h = Hearing.of(all[i]);
      starts[i] = h.statementStarts();
      ends[i] = h.statementEnds();
      statements[i] = h.statements();
      callStarts[i] = h.callStarts();
      callEnds[i] = h.callEnds();
      callFails[i] = h.callFails();
      calls[i] = h.calls();
      any = any.or(h);
    }
    hearing = any;
    onlyStatements = only(statements);
    onlyCalls = only(calls);
  }

  /**
   * Which events a listener hears, read once from the methods it overrides: the driver skips a
   * call (and the clock reads that timing calls takes) that no listener would act on.
   */
  record Hearing(boolean statementStarts, boolean statementEnds, boolean callStarts, boolean callEnds, boolean callFails,
      boolean callTimes) {
    static final Hearing NOTHING = new Hearing(false, false, false, false, false, false);

    static Hearing of(ShardexListener l) {
      if (l instanceof Listeners several) {
        return several.hearing;
      }
      boolean callEnds = overrides(l, "shardCallEnded", ClusterView.class, Object.class, Shard.class, long.class);
      return new Hearing(overrides(l, "statementStarted", StatementView.class),
          overrides(l, "statementEnded", StatementView.class, Object.class),
          overrides(l, "shardCallStarted", ClusterView.class, StatementView.class, Object.class, Shard.class),
          callEnds, overrides(l, "shardCallFailed", ClusterView.class, Object.class, Shard.class, SQLException.class),
          callEnds && l.timesShardCalls());
    }

    /** Whether it hears statements (its state from a start goes to its end). */
    boolean statements() {
      return statementStarts || statementEnds;
    }

    boolean calls() {
      return callStarts || callEnds || callFails;
    }

    Hearing or(Hearing o) {
      return new Hearing(statementStarts || o.statementStarts, statementEnds || o.statementEnds,
          callStarts || o.callStarts, callEnds || o.callEnds, callFails || o.callFails, callTimes || o.callTimes);
    }
  }

  private static int only(boolean[] hears) {
    int found = -1;
    for (int i = 0; i < hears.length; i++) {
      if (hears[i]) {
        if (found >= 0) {
          return -1;
        }
        found = i;
      }
    }
    return found;
  }

  private static boolean overrides(ShardexListener l, String method, Class<?>... types) {
    try {
      return l.getClass().getMethod(method, types).getDeclaringClass() != ShardexListener.class;
    } catch (NoSuchMethodException e) {
      return true;
    }
  }

  /** The listener in effect for a cluster: its own and the registered ones; null when none. */
  static ShardexListener of(List<ShardexListener> own, ShardexListener[] registered) {
    List<ShardexListener> list = new ArrayList<>(own);
    list.addAll(List.of(registered));
    return list.isEmpty() ? null : list.size() == 1 ? list.get(0) : new Listeners(list.toArray(new ShardexListener[0]));
  }

  @Override
  public void clusterOpened(ClusterView cluster) {
    for (ShardexListener l : all) {
      l.clusterOpened(cluster);
    }
  }

  @Override
  public void clusterClosed(ClusterView cluster) {
    for (ShardexListener l : all) {
      l.clusterClosed(cluster);
    }
  }

  @Override
  public void poolCreating(ClusterView cluster, int shard, HikariConfig config) {
    for (ShardexListener l : all) {
      l.poolCreating(cluster, shard, config);
    }
  }

  @Override
  public Executor fanout(Executor pool) {
    Executor e = pool;
    for (ShardexListener l : all) {
      e = l.fanout(e);
    }
    return e;
  }

  @Override
  public Object statementStarted(StatementView statement) {
    if (onlyStatements >= 0) {
      return starts[onlyStatements] ? all[onlyStatements].statementStarted(statement) : null;
    }
    Object[] states = null;
    for (int i = 0; i < all.length; i++) {
      if (starts[i]) {
        states = keep(states, i, all[i].statementStarted(statement));
      }
    }
    return states;
  }

  /** The states so far with this listener's: made on the first state that is not null. */
  private Object[] keep(Object[] states, int i, Object state) {
    if (state == null) {
      return states;
    }
    Object[] s = states == null ? new Object[all.length] : states;
    s[i] = state;
    return s;
  }

  /** Listener i's state among {@code states}: the state itself when {@code only} is i, else its slot. */
  private static Object at(Object states, int i, int only) {
    if (only >= 0) {
      return only == i ? states : null;
    }
    return states == null ? null : ((Object[]) states)[i];
  }

  @Override
  public void statementEnded(StatementView statement, Object started) {
    for (int i = 0; i < all.length; i++) {
      if (ends[i]) {
        all[i].statementEnded(statement, at(started, i, onlyStatements));
      }
    }
  }

  @Override
  public Object shardCallStarted(ClusterView cluster, StatementView statement, Object started, Shard shard) {
    if (onlyCalls >= 0) {
      return callStarts[onlyCalls]
          ? all[onlyCalls].shardCallStarted(cluster, statement, at(started, onlyCalls, onlyStatements), shard) : null;
    }
    Object[] states = null;
    for (int i = 0; i < all.length; i++) {
      if (callStarts[i]) {
        states = keep(states, i, all[i].shardCallStarted(cluster, statement, at(started, i, onlyStatements), shard));
      }
    }
    return states;
  }

  @Override
  public void shardCallFailed(ClusterView cluster, Object call, Shard shard, SQLException error) {
    for (int i = 0; i < all.length; i++) {
      if (callFails[i]) {
        all[i].shardCallFailed(cluster, at(call, i, onlyCalls), shard, error);
      }
    }
  }

  @Override
  public void shardCallEnded(ClusterView cluster, Object call, Shard shard, long nanos) {
    for (int i = 0; i < all.length; i++) {
      if (callEnds[i]) {
        all[i].shardCallEnded(cluster, at(call, i, onlyCalls), shard, nanos);
      }
    }
  }

  @Override
  public boolean timesShardCalls() {
    return hearing.callTimes();
  }

  @Override
  public void transactionEnded(ClusterView cluster, String mode, int shards, TransactionOutcome outcome,
      SQLException error, long nanos) {
    for (ShardexListener l : all) {
      l.transactionEnded(cluster, mode, shards, outcome, error, nanos);
    }
  }

  @Override
  public void recovered(ClusterView cluster, int committed, int rolledBack) {
    for (ShardexListener l : all) {
      l.recovered(cluster, committed, rolledBack);
    }
  }
}
