package dev.shardex.driver.events;

import com.zaxxer.hikari.HikariConfig;
import dev.shardex.directory.Shard;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Several listeners as one: each gets its own state back ({@code Object[]}, one slot per
 * listener). One listener is used as it is, so the common cases (JMX alone, JMX plus one module)
 * pay for the array only with two or more.
 */
final class Listeners implements ShardexListener {
  private final ShardexListener[] all;

  private Listeners(ShardexListener[] all) {
    this.all = all;
  }

  /** The listener in effect for a cluster: its own (may be null) and the registered ones; null when none. */
  static ShardexListener of(ShardexListener own, ShardexListener[] registered) {
    List<ShardexListener> list = new ArrayList<>();
    if (own != null) {
      list.add(own);
    }
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
    Object[] states = new Object[all.length];
    for (int i = 0; i < all.length; i++) {
      states[i] = all[i].statementStarted(statement);
    }
    return states;
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
    Object[] states = new Object[all.length];
    for (int i = 0; i < all.length; i++) {
      states[i] = all[i].shardCallStarted(cluster, statement, parents == null ? null : parents[i], shard);
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
