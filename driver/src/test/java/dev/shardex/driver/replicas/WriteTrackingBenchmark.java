package dev.shardex.driver.replicas;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What read-your-writes costs a write: an UPDATE by key on a cluster that reads primaries only
 * against the same on a {@code replica_preferred} cluster, whose primary connections report each
 * write's GTID in its OK packet (Connector/J's trackSessionState, the server's
 * session_track_system_variables=last_gtid) and whose connection remembers it. Measured on the
 * caller's thread (a one-shard write runs entirely there): bytes allocated and CPU time per write,
 * the two taking turns in blocks; per figure the median over blocks. Not part of the suite
 * ({@code @Tag("benchmark")}): {@code mvn -o -q test -pl driver -am -Dtest=WriteTrackingBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}; options {@code track.blocks} (20), {@code track.ops} (2000).
 */
class WriteTrackingBenchmark {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final String UPDATE = "UPDATE wt SET n = n + 1 WHERE user_id = ?";

  @Test
  @Tag("benchmark")
  void writeCost_withAndWithoutGtidTracking() throws SQLException {
    int blocks = Integer.getInteger("track.blocks", 20);
    int ops = Integer.getInteger("track.ops", 2_000);
    try (Connection setup = DriverManager.getConnection(ReplicaCatalogTest.URL); Statement s = setup.createStatement()) {
      s.execute("DROP TABLE IF EXISTS wt");
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE wt (user_id BIGINT PRIMARY KEY, n BIGINT NOT NULL)");
      for (int u = 1; u <= 64; u++) {
        s.execute("INSERT INTO wt VALUES (" + u + ", 0)");
      }
    }
    try (Connection plain = DriverManager.getConnection(ReplicaCatalogTest.URL + "&shardex.instance=wt-plain");
        Connection tracked = DriverManager.getConnection(ReadYourWritesTest.BASE + "&shardex.instance=wt-tracked");
        PreparedStatement a = plain.prepareStatement(UPDATE);
        PreparedStatement b = tracked.prepareStatement(UPDATE)) {
      for (int i = 0; i < 3; i++) { // warm-up
        block(a, ops);
        block(b, ops);
      }
      double[][] plainFigures = new double[2][blocks];
      double[][] trackedFigures = new double[2][blocks];
      for (int i = 0; i < blocks; i++) {
        double[] p = block(a, ops);
        double[] t = block(b, ops);
        plainFigures[0][i] = p[0];
        plainFigures[1][i] = p[1];
        trackedFigures[0][i] = t[0];
        trackedFigures[1][i] = t[1];
      }
      System.out.printf(Locale.ROOT, "UPDATE by key, %d blocks of %d: primaries only %.0f B, %.1f us CPU;"
          + " GTID tracked %.0f B, %.1f us CPU; difference %+.0f B, %+.1f us (load %.1f)%n", blocks, ops,
          median(plainFigures[0]), median(plainFigures[1]), median(trackedFigures[0]), median(trackedFigures[1]),
          median(trackedFigures[0]) - median(plainFigures[0]), median(trackedFigures[1]) - median(plainFigures[1]),
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  /** {bytes, CPU microseconds} per write over one block. */
  private static double[] block(PreparedStatement ps, int ops) throws SQLException {
    long bytes = THREADS.getCurrentThreadAllocatedBytes();
    long cpu = THREADS.getCurrentThreadCpuTime();
    for (int i = 0; i < ops; i++) {
      ps.setLong(1, 1 + i % 64);
      ps.executeUpdate();
    }
    return new double[] {(THREADS.getCurrentThreadAllocatedBytes() - bytes) / (double) ops,
        (THREADS.getCurrentThreadCpuTime() - cpu) / 1e3 / ops};
  }

  private static double median(double[] v) {
    double[] sorted = v.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
