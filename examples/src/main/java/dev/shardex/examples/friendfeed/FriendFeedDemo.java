package dev.shardex.examples.friendfeed;

import dev.shardex.examples.support.SandboxDirectories;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * FriendFeed's schemaless store under load: writers put and update entities (some "crash" between
 * the entity and its index rows), a new index is added and back-filled online while they write,
 * the Cleaner repairs what the crashes and updates left, and every query is checked against the
 * entities themselves. Runs on a 4-shard sandbox with key spaces {@code entity} and {@code link}
 * (STRING); with {@code -Dshardex.url=...} create those first ({@code shardex keyspaces add entity
 * --type STRING}, the same for {@code link}).
 */
public final class FriendFeedDemo {
  private FriendFeedDemo() {}

  public static String sandboxUrl(String name) throws Exception {
    SandboxCluster sandbox = SandboxCluster.shared(name, 4);
    return SandboxDirectories.directory(sandbox, name + "_dir", 4, 0,
        List.of(new KeySpace("entity", KeyType.STRING, KeySpace.LEAST_LOADED), new KeySpace("link", KeyType.STRING, KeySpace.LEAST_LOADED)));
  }

  static byte[] id(long n) {
    return ByteBuffer.allocate(16).putLong(0x5eed_f00dL).putLong(n).array();
  }

  /** Entity {@code n}, version {@code v}: updates move it to another user (so old index rows go stale). */
  static Entity entity(long n, int v) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("user_id", 1 + (n * 7L + v * 13L) % 200);
    p.put("feed_id", 1 + n % 50);
    p.put("link", "https://example.org/story/" + (n % 300));
    p.put("title", "Entry " + n + " \"v" + v + "\"");
    return new Entity(id(n), p);
  }

  /** What a run did. */
  public record Run(long puts, long crashes, FriendFeed.Repairs backfill, FriendFeed.Repairs cleanup, int checked, int wrong) {}

  public static Run run(String url, int entities, int writers, long seed) throws Exception {
    Set<String> indexes = FriendFeed.indexes("user_id", "link");
    try (Connection c = DriverManager.getConnection(url)) {
      new FriendFeed(c, indexes).createSchema();
    }
    AtomicLong puts = new AtomicLong();
    AtomicLong crashes = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(writers + 1, r -> {
      Thread t = new Thread(r, "friendfeed");
      t.setDaemon(true);
      return t;
    });
    FriendFeed.Repairs backfill;
    try {
      List<Future<Void>> ws = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        ws.add(pool.submit(() -> {
          Random r = new Random(seed + writer);
          try (Connection c = DriverManager.getConnection(url)) {
            FriendFeed ff = new FriendFeed(c, indexes);
            for (long n = writer; n < entities; n += writers) {
              boolean crash = r.nextInt(50) == 0;
              try {
                ff.put(entity(n, 0), crash);
              } catch (SQLException e) {
                if (!crash) {
                  throw e;
                }
                crashes.incrementAndGet();
              }
              puts.incrementAndGet();
              if (r.nextInt(10) == 0 && n >= writers) { // an update of an earlier entity: its user changes
                ff.put(entity(n - writers, 1 + r.nextInt(3)));
                puts.incrementAndGet();
              }
            }
          }
          return null;
        }));
      }
      while (puts.get() < entities / 2) {
        Thread.sleep(20);
      }
      try (Connection c = DriverManager.getConnection(url)) { // a new index, back-filled while the writers go on
        FriendFeed ff = new FriendFeed(c, indexes);
        ff.addIndex("feed_id");
        backfill = ff.clean();
      }
      for (Future<Void> w : ws) {
        w.get();
      }
    } finally {
      pool.shutdownNow();
    }
    try (Connection c = DriverManager.getConnection(url)) {
      FriendFeed ff = new FriendFeed(c, indexes);
      FriendFeed.Repairs cleanup = ff.clean();
      int[] check = check(c, ff);
      return new Run(puts.get(), crashes.get(), backfill, cleanup, check[0], check[1]);
    }
  }

  /** Every user, link and feed query against a brute-force filter of all entities: [checked, wrong]. */
  static int[] check(Connection c, FriendFeed ff) throws SQLException {
    List<Entity> all = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, body FROM entities")) {
      while (rs.next()) {
        all.add(Entity.decode(rs.getBytes(1), rs.getBytes(2)));
      }
    }
    int checked = 0;
    int wrong = 0;
    Map<String, List<Object>> probes = Map.of("user_id", List.of(1L, 2L, 50L, 199L), "feed_id", List.of(1L, 25L, 50L),
        "link", List.of("https://example.org/story/0", "https://example.org/story/299"));
    for (Map.Entry<String, List<Object>> p : probes.entrySet()) {
      for (Object value : p.getValue()) {
        List<String> want = all.stream().filter(e -> value.toString().equals(String.valueOf(e.get(p.getKey()))))
            .map(e -> java.util.HexFormat.of().formatHex(e.id())).sorted().toList();
        List<String> got = ff.query(p.getKey(), value).stream().map(e -> java.util.HexFormat.of().formatHex(e.id())).sorted().toList();
        checked++;
        if (!want.equals(got) || want.isEmpty()) {
          wrong++;
        }
      }
    }
    return new int[] {checked, wrong};
  }

  public static void main(String[] args) throws Exception {
    String url = System.getProperty("shardex.url", null);
    if (url == null) {
      url = sandboxUrl("friendfeed");
    }
    int entities = Integer.getInteger("friendfeed.entities", 3_000);
    long start = System.nanoTime();
    Run r = run(url, entities, 2, 11);
    double s = (System.nanoTime() - start) / 1e9;
    System.out.printf("FriendFeed's schemaless store: %,d entities, 2 writers, %.1f s%n%n", entities, s);
    System.out.printf("  puts (inserts and updates that change an entity's user): %,d, of which %d crashed between the entity and its index rows%n",
        r.puts(), r.crashes());
    System.out.printf("  new index feed_id added online, back-filled by the Cleaner while writers ran: %,d entities read, %,d rows added%n",
        r.backfill().entities(), r.backfill().added());
    System.out.printf("  Cleaner afterwards: %,d missing index rows added, %,d stale rows removed%n", r.cleanup().added(),
        r.cleanup().removed());
    System.out.printf("  queries by user_id, link and feed_id checked against the entities themselves: %d, wrong: %d%n", r.checked(),
        r.wrong());
    if (r.wrong() > 0) {
      throw new SQLException(r.wrong() + " queries answered wrongly");
    }
  }
}
