package dev.shardex.driver.jmx;

import com.zaxxer.hikari.HikariConfig;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.driver.events.ClusterView;
import dev.shardex.driver.events.RouteKind;
import dev.shardex.driver.events.ShardexListener;
import dev.shardex.driver.events.StatementOutcome;
import dev.shardex.driver.events.StatementView;
import dev.shardex.driver.events.TransactionOutcome;
import java.lang.management.ManagementFactory;
import java.sql.SQLException;
import java.util.Map;
import java.util.TreeMap;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * shardex.telemetry=jmx (the default): one cluster's counters as a platform MXBean, and its shard
 * pools' HikariCP beans. Counting is a few adder increments per statement and shard call; it
 * allocates nothing and keeps no per-call state. A name already taken (it should not be: cluster
 * names are unique in the JVM) leaves that cluster without a bean rather than failing it.
 */
public final class ClusterBeans implements ShardexListener, ShardexClusterMXBean {
  private final Counters c = new Counters();
  private volatile ClusterView cluster;
  private ObjectName name;

  @Override
  public void clusterOpened(ClusterView view) {
    cluster = view;
    try {
      name = objectName(view);
      ManagementFactory.getPlatformMBeanServer().registerMBean(this, name);
    } catch (JMException | RuntimeException e) {
      name = null;
      org.slf4j.LoggerFactory.getLogger(ClusterBeans.class).warn("Shardex: cannot register the MBean of cluster {}: {}",
          view.name(), e.toString());
    }
  }

  /** {@code dev.shardex:type=Cluster,instance=I,name=I-cN}. */
  public static ObjectName objectName(ClusterView view) throws JMException {
    return new ObjectName("dev.shardex:type=Cluster,instance=" + view.instance() + ",name=" + view.name());
  }

  @Override
  public void clusterClosed(ClusterView view) {
    if (name != null) {
      try {
        ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
      } catch (JMException e) {
        // already gone
      }
      name = null;
    }
  }

  @Override
  public void poolCreating(ClusterView view, int shard, HikariConfig config) {
    config.setRegisterMbeans(true);
  }

  @Override
  public void statementEnded(StatementView s, Object started) {
    RouteKind route = s.route();
    StatementOutcome outcome = s.outcome();
    c.statements[route.ordinal()][outcome.ordinal()].increment();
    c.statementNanos[route.ordinal()].add(s.elapsedNanos());
    c.fanout.add(s.shardCalls());
    if (outcome == StatementOutcome.REFUSED) {
      Counters.count(c.refusals, s.errorType());
    } else if (outcome == StatementOutcome.ERROR) {
      Counters.count(c.errors, s.errorType());
    }
  }

  @Override
  public Object shardCallStarted(ClusterView view, StatementView statement, Object started, Shard shard) {
    Counters.count(c.shardCalls, shard.id());
    return null;
  }

  @Override
  public void shardCallFailed(ClusterView view, Object call, Shard shard, SQLException error) {
    if (dev.shardex.driver.events.ErrorTypes.shardHealth(error)) {
      Counters.count(c.shardErrors, shard.id());
    }
  }

  @Override
  public void transactionEnded(ClusterView view, String mode, int shards, TransactionOutcome outcome,
      SQLException error, long nanos) {
    int row = Counters.mode(mode) * Counters.SCOPES.length + (shards > 1 ? 1 : 0);
    c.transactions[row][outcome.ordinal()].increment();
  }

  @Override
  public void recovered(ClusterView view, int committed, int rolledBack) {
    c.recoveredCommitted.add(committed);
    c.recoveredRolledBack.add(rolledBack);
  }

  @Override
  public String getInstance() {
    return cluster.instance();
  }

  @Override
  public String getName() {
    return cluster.name();
  }

  @Override
  public Map<String, Long> getStatements() {
    Map<String, Long> out = new TreeMap<>();
    for (RouteKind r : RouteKind.values()) {
      for (StatementOutcome o : StatementOutcome.values()) {
        long n = c.statements[r.ordinal()][o.ordinal()].sum();
        if (n > 0) {
          out.put(r.tag() + "." + o.tag(), n);
        }
      }
    }
    return out;
  }

  @Override
  public Map<String, Long> getStatementNanos() {
    Map<String, Long> out = new TreeMap<>();
    for (RouteKind r : RouteKind.values()) {
      long n = c.statementNanos[r.ordinal()].sum();
      if (n > 0) {
        out.put(r.tag(), n);
      }
    }
    return out;
  }

  @Override
  public Map<String, Long> getRefusals() {
    return Counters.read(c.refusals);
  }

  @Override
  public Map<String, Long> getErrors() {
    return Counters.read(c.errors);
  }

  @Override
  public long getFanoutShardCalls() {
    return c.fanout.sum();
  }

  @Override
  public Map<String, Long> getShardCalls() {
    return Counters.read(c.shardCalls);
  }

  @Override
  public Map<String, Long> getShardErrors() {
    return Counters.read(c.shardErrors);
  }

  @Override
  public Map<String, Long> getTransactions() {
    Map<String, Long> out = new TreeMap<>();
    for (int m = 0; m < Counters.MODES.length; m++) {
      for (int s = 0; s < Counters.SCOPES.length; s++) {
        for (TransactionOutcome o : TransactionOutcome.values()) {
          long n = c.transactions[m * Counters.SCOPES.length + s][o.ordinal()].sum();
          if (n > 0) {
            out.put(Counters.MODES[m] + "." + Counters.SCOPES[s] + "." + o.tag(), n);
          }
        }
      }
    }
    return out;
  }

  @Override
  public long getRecoveredCommitted() {
    return c.recoveredCommitted.sum();
  }

  @Override
  public long getRecoveredRolledBack() {
    return c.recoveredRolledBack.sum();
  }

  @Override
  public long getKeyCacheHits() {
    return cluster.directory().keys().hits();
  }

  @Override
  public long getKeyCacheMisses() {
    return cluster.directory().keys().misses();
  }

  @Override
  public long getKeyCacheSize() {
    return cluster.directory().keys().size();
  }

  @Override
  public long getLeaseAgeMillis() {
    return cluster.directory().leaseAgeMillis();
  }

  @Override
  public long getAppliedChange() {
    return cluster.directory().appliedChange();
  }

  @Override
  public int getKeysMoving() {
    return cluster.directory().keysMoving();
  }
}
