package dev.shardex.driver.transactions;

import dev.shardex.driver.execute.AtomicCommit;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * A driver process that dies mid-commit: runs one atomic transaction over the given users and
 * halts the JVM (no shutdown hooks, no rollback) at the given step of its commit.
 * Args: url user password step branchIndex note user...
 */
public final class CrashChild {
  private CrashChild() {}

  public static void main(String[] args) throws Exception {
    AtomicCommit.Step at = AtomicCommit.Step.valueOf(args[3]);
    int nth = Integer.parseInt(args[4]);
    int[] seen = {0};
    AtomicCommit.faultForTests = (step, shard, gtrid, connections) -> {
      if (step == at && seen[0]++ == nth) {
        System.out.println("halting at " + step + " on shard " + shard);
        System.out.flush();
        Runtime.getRuntime().halt(3);
      }
    };
    java.util.Properties p = new java.util.Properties();
    p.setProperty("user", args[1]);
    p.setProperty("password", args[2]);
    p.setProperty("shardex.instance", "crash-child");
    try (Connection c = DriverManager.getConnection(args[0], p); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      for (int i = 6; i < args.length; i++) {
        s.executeUpdate("INSERT INTO ac_rows (user_id, note) VALUES (" + args[i] + ", '" + args[5] + "')");
      }
      c.commit();
    }
    System.out.println("committed without halting");
    System.exit(0);
  }
}
