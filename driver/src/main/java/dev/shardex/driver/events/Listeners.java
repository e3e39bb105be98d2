package dev.shardex.driver.events;

import com.zaxxer.hikari.HikariConfig;
import dev.shardex.directory.Shard;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Several listeners as one: each gets its own state back ({@code Object[]}, one slot per
 * listener), and the array is made only when some listener returned a state (the JMX beans and the
 * slow-statement log return none), so they cost nothing more together than alone.
 */
final class Listeners implements ShardexListener {
  private final ShardexListener[] all;

  private Listeners(ShardexListener[] all) {
    this.all = all;
  }

  /** The listener in effect for a cluster: its own (may be null) and the registered ones; null when none. */
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
    Object[] states = null;
    for (int i = 0; i < all.length; i++) {
      states = keep(states, i, all[i].statementStarted(statement));
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

  @Override
  public void statementEnded(StatementView statement, Object started) {
    Object[] states = (Object[]) started;
    for (int i = 0; i < all.length; i++) {
      all[i].statementEnded(statement, states == null ? null : states[i]);
    }
  }

  @Override
  public Object shardCallStarted(ClusterView cluster, StatementView statement, Object started, Shard shard) {
    Object[] parents = (Object[]) started;
    Object[] states = null;
    for (int i = 0; i < all.length; i++) {
      states = keep(states, i, all[i].shardCallStarted(cluster, statement, parents == null ? null : parents[i], shard));
    }
    return states;
  }

  @Override
  public void shardCallFailed(ClusterView cluster, Object call, Shard shard, SQLException error) {
    Object[] states = (Object[]) call;
    for (int i = 0; i < all.length; i++) {
      all[i].shardCallFailed(cluster, states == null ? null : states[i], shard, error);
    }
  }

  @Override
  public void shardCallEnded(ClusterView cluster, Object call, Shard shard) {
    Object[] states = (Object[]) call;
    for (int i = 0; i < all.length; i++) {
      all[i].shardCallEnded(cluster, states == null ? null : states[i], shard);
    }
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
