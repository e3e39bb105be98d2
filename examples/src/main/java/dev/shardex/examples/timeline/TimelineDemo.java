package dev.shardex.examples.timeline;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The seed's timeline benchmark, push vs pull, on one shard and on four: data size, submissions/s
 * and timeline retrievals/s, printed next to the seed's published figures. Default scale is small
 * enough for a demo; {@code -Dtimeline.users=10000 -Dtimeline.messages=200000} is the seed-like run
 * (10,000 users following ~43 each; the seed had 1,000,000 messages on one 2008 server).
 *
 * <p>Runs on embedded sandboxes ({@code jdbc:shardex:sandbox:timeline1?shards=1} and
 * {@code ...timeline4?shards=4}); {@code -Dshardex.url=...} runs one configuration elsewhere.
 */
public final class TimelineDemo {
  static final int FOLLOWEES = 43;
  static final int THREADS = 4;

  private TimelineDemo() {}

  /** What one model measured on one cluster. */
  public record Figures(String model, long bytes, double submitsPerSecond, double retrievalsPerSecond) {}

  public static void main(String[] args) throws Exception {
    int users = Integer.getInteger("timeline.users", 1_000);
    int messages = Integer.getInteger("timeline.messages", 5_000);
    String url = System.getProperty("shardex.url");
    List<String[]> clusters = url != null ? List.<String[]>of(new String[] {"as configured", url})
        : List.of(new String[] {"1 shard", "jdbc:shardex:sandbox:timeline1?shards=1"},
            new String[] {"4 shards", "jdbc:shardex:sandbox:timeline4?shards=4"});
    System.out.printf("Timelines, push vs pull: %,d users following ~%d each, %,d messages submitted per model%n%n", users,
        FOLLOWEES, messages);
    System.out.printf("  %-9s %-5s %12s %14s %14s%n", "cluster", "model", "data size", "submissions/s", "retrievals/s");
    for (String[] cl : clusters) {
      for (boolean push : new boolean[] {true, false}) {
        Figures f = run(cl[1], push, users, messages, 42);
        System.out.printf(Locale.ROOT, "  %-9s %-5s %9.1f MB %14.0f %14.0f%n", cl[0], f.model(), f.bytes() / 1e6,
            f.submitsPerSecond(), f.retrievalsPerSecond());
      }
    }
    System.out.println();
    System.out.println("Seed (Kazuho Oku, 2009; 10,000 users, 1,000,000 messages, 42.9 followees, one MySQL 5.1 on a Pentium 4):");
    System.out.println("  push: 2.0 GB, 560 submissions/s, 1,300 retrievals/s;  pull: 130 MB, 6,700 submissions/s, 120 retrievals/s");
  }

  /**
   * Loads a follow graph into fresh tables, then times {@code messages} submissions and then
   * first-page retrievals, each from {@link #THREADS} threads, for one model.
   */
  public static Figures run(String url, boolean push, int users, int messages, long seed) throws Exception {
    String model = push ? "push" : "pull";
    String modelUrl = url + (url.contains("?") ? "&" : "?") + "shardex.hints=true";
    try (Connection c = DriverManager.getConnection(modelUrl)) {
      Timeline t = new Timeline(c);
      t.createSchema();
      clear(c);
      List<Set<Long>> follows = graph(users, seed);
      for (int u = 0; u < users; u++) {
        t.follow(u + 1, follows.get(u));
      }
      double submits = timed(url, users, messages, push, seed + 1, true);
      double reads = timed(url, users, Math.min(2_000, users * 2), push, seed + 2, false);
      return new Figures(model, dataSize(c, push), submits, reads);
    }
  }

  /** The follow graph: each user follows ~43 others, popular users (low ids) more often. */
  public static List<Set<Long>> graph(int users, long seed) {
    Random r = new Random(seed);
    List<Set<Long>> follows = new ArrayList<>();
    for (int u = 0; u < users; u++) {
      Set<Long> f = new LinkedHashSet<>();
      int n = FOLLOWEES / 2 + r.nextInt(FOLLOWEES + 1);
      while (f.size() < Math.min(n, users - 1)) {
        long other = (long) Math.min(users - 1, Math.abs(r.nextGaussian()) * users / 2.5);
        if (other != u) {
          f.add(other + 1);
        }
      }
      follows.add(f);
    }
    return follows;
  }

  private static double timed(String url, int users, int ops, boolean push, long seed, boolean submit) throws Exception {
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS, r -> {
      Thread th = new Thread(r, "timeline-client");
      th.setDaemon(true);
      return th;
    });
    long start = System.nanoTime();
    try {
      List<Future<Void>> clients = new ArrayList<>();
      for (int i = 0; i < THREADS; i++) {
        clients.add(pool.submit(() -> {
          Random r = new Random(seed + Thread.currentThread().getId());
          try (Connection c = DriverManager.getConnection(url)) {
            Timeline t = new Timeline(c);
            while (next.getAndIncrement() < ops) {
              long user = 1L + r.nextInt(users);
              if (submit) {
                if (push) {
                  t.submitPush(user, "a message from user " + user);
                } else {
                  t.submitPull(user, "a message from user " + user);
                }
              } else if (push) {
                t.pushPage(user, Long.MAX_VALUE);
              } else {
                t.pullPage(user, Long.MAX_VALUE);
              }
            }
          }
          return null;
        }));
      }
      for (Future<Void> f : clients) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return ops / ((System.nanoTime() - start) / 1e9);
  }

  private static void clear(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (int shard = 0; shard < shards(c); shard++) {
        for (String table : new String[] {"follows", "followers", "message", "mailbox"}) {
          s.execute("/* shardex:shard=" + shard + " */ TRUNCATE TABLE " + table);
        }
      }
    }
  }

  /** InnoDB's data + index bytes of the model's tables, summed over the shards. */
  static long dataSize(Connection c, boolean push) throws SQLException {
    String tables = push ? "'followers','message','mailbox'" : "'follows','message'";
    long bytes = 0;
    for (int shard = 0; shard < shards(c); shard++) {
      try (Statement s = c.createStatement()) {
        for (String t : tables.replace("'", "").split(",")) {
          s.execute("/* shardex:shard=" + shard + " */ ANALYZE TABLE " + t);
        }
      }
      try (PreparedStatement ps = c.prepareStatement("/* shardex:shard=" + shard + " */ SELECT SUM(data_length + index_length) "
          + "FROM information_schema.TABLES WHERE table_schema = DATABASE() AND table_name IN (" + tables + ")");
          ResultSet rs = ps.executeQuery()) {
        rs.next();
        bytes += rs.getLong(1);
      }
    }
    return bytes;
  }

  private static int shards(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN ROUTE SELECT * FROM message")) {
      int n = 0;
      while (rs.next()) {
        n = Math.max(n, rs.getInt(1) + 1);
      }
      return n;
    }
  }
}
