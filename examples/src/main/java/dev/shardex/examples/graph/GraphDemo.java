package dev.shardex.examples.graph;

import dev.shardex.examples.support.SandboxDirectories;
import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Facebook's hot node: many threads add edges to one node at once, each add also incrementing the
 * node's count, once as a transaction of separate round trips and once as one multi-statement
 * text. With the shards behind a simulated network delay, the first is bounded by the row lock
 * held across round trips, as in the seed; the second is not.
 *
 * <p>Runs on a 2-shard sandbox (direct, and behind 1 ms and 10 ms delay proxies) by default;
 * {@code -Dshardex.url=jdbc:shardex:mysql://...} runs it against real MySQL as the network is.
 */
public final class GraphDemo {
  static final int THREADS = 8;

  private GraphDemo() {}

  /** One measurement: a way of adding edges, on one wiring, for a while. */
  public record Result(String wiring, String mode, long added, double perSecond, long storedEdges, long countedEdges) {}

  public static void main(String[] args) throws Exception {
    long millis = Long.getLong("graph.millis", 3_000);
    String url = System.getProperty("shardex.url");
    List<String[]> wirings = new ArrayList<>();
    if (url != null) {
      wirings.add(new String[] {"as configured", url});
    } else {
      SandboxCluster sandbox = SandboxCluster.shared("graph", 2);
      for (long delay : new long[] {0, 1, 10}) {
        wirings.add(new String[] {delay + " ms each way",
            SandboxDirectories.directory(sandbox, "graph_dir_" + delay + "ms", 2, delay, List.of())});
      }
    }
    System.out.printf("Facebook's hot node: %d threads add edges to one node for %.1f s per cell%n%n", THREADS, millis / 1000.0);
    System.out.printf("  %-15s %26s %26s %7s%n", "network", "transaction (4 trips)/s", "non-stored (1 trip)/s", "ratio");
    long node = 7_000_000 + (System.currentTimeMillis() % 1_000_000) * 10;
    for (String[] w : wirings) {
      Result tx = measure(w[0], w[1], node++, false, millis);
      Result ns = measure(w[0], w[1], node++, true, millis);
      System.out.printf(Locale.ROOT, "  %-15s %26.0f %26.0f %6.1fx   (edges stored = counted: %s)%n", w[0], tx.perSecond(),
          ns.perSecond(), ns.perSecond() / Math.max(tx.perSecond(), 0.001),
          tx.storedEdges() == tx.countedEdges() && ns.storedEdges() == ns.countedEdges() ? "yes" : "NO");
    }
    System.out.println();
    System.out.println("Seed (Facebook, MySQL Tech Talk): the transaction peaked at 600 adds/s on one hot node and fell to");
    System.out.println("10 adds/s at 100 ms of latency; the non-stored procedure 'more than doubles' the rate.");
  }

  /** Adds edges to {@code node} from {@link #THREADS} threads for {@code millis}, then checks the count. */
  public static Result measure(String wiring, String url, long node, boolean nonStored, long millis) throws Exception {
    try (Connection c = DriverManager.getConnection(url)) {
      Graph g = new Graph(c);
      g.createSchema();
      g.addNode(node);
    }
    AtomicLong added = new AtomicLong();
    long end = System.nanoTime() + millis * 1_000_000L;
    ExecutorService pool = Executors.newFixedThreadPool(THREADS, r -> {
      Thread t = new Thread(r, "graph-writer");
      t.setDaemon(true);
      return t;
    });
    long start = System.nanoTime();
    try {
      List<Future<Void>> writers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        long firstTarget = t * 1_000_000_000L;
        writers.add(pool.submit(() -> {
          try (Connection c = DriverManager.getConnection(url)) {
            Graph g = new Graph(c);
            for (long target = firstTarget; System.nanoTime() < end; target++) {
              if (nonStored ? g.addEdgeNonStored(node, target) : g.addEdgeInTransaction(node, target)) {
                added.incrementAndGet();
              }
            }
          }
          return null;
        }));
      }
      for (Future<Void> w : writers) {
        w.get();
      }
    } finally {
      pool.shutdownNow();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    try (Connection c = DriverManager.getConnection(url)) {
      long[] counts = new Graph(c).counts(node);
      return new Result(wiring, nonStored ? "non-stored" : "transaction", added.get(), added.get() / seconds, counts[0], counts[1]);
    }
  }

  static void check(Result r) throws SQLException {
    if (r.storedEdges() != r.countedEdges() || r.storedEdges() != r.added()) {
      throw new SQLException("lost increments: " + r);
    }
  }
}
