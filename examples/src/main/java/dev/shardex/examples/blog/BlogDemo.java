package dev.shardex.examples.blog;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The Netlog blog: authors, their posts and the comments on them, sharded by author id, in the
 * way Netlog partitioned its users in 2009. {@link Blog} is ordinary JDBC that knows nothing of
 * shards; this class runs it and then shows, through two Shardex SQL features (EXPLAIN ROUTE and a
 * shard hint), where the authors landed and how many rows each shard holds.
 *
 * <p>Runs on an embedded 4-shard sandbox by default; {@code -Dshardex.url=jdbc:shardex:mysql://...}
 * runs it against real MySQL (whose directory `shardex init` created).
 */
public final class BlogDemo {
  static final String DEFAULT_URL = "jdbc:shardex:sandbox:blog?shards=4";
  static final List<String> AUTHORS = List.of("ada", "brian", "chen", "dara", "emeka", "fatima", "goran", "hana",
      "ines", "jonas", "kofi", "lena");

  private BlogDemo() {}

  public static void main(String[] args) throws SQLException {
    String url = System.getProperty("shardex.url", DEFAULT_URL);
    String demoUrl = url + (url.contains("?") ? "&" : "?") + "shardex.hints=true";
    long started = System.nanoTime();
    try (Connection c = DriverManager.getConnection(demoUrl)) {
      System.out.printf("Shardex blog demo on %s%n%n", url.replaceAll("password=[^&]*", "password=***"));
      Blog blog = new Blog(c);
      blog.createSchema();
      for (int i = 0; i < AUTHORS.size(); i++) {
        long author = 1_000L + i;
        blog.addAuthor(author, AUTHORS.get(i));
        for (int p = 1; p <= 3 + i % 3; p++) {
          long post = blog.publish(author, "Post " + p + " by " + AUTHORS.get(i), "Hello from " + AUTHORS.get(i));
          blog.comment(author, post, 1_000 + (i + p) % AUTHORS.size(), "Nice post, " + AUTHORS.get(i) + "!");
        }
      }
      printPlacement(c);
      printRowsPerShard(c);
      printTimeline(blog, 1_003);
      printListCache(c);
      printRejected(c);
    }
    System.out.printf("%nDone in %d ms.%n", (System.nanoTime() - started) / 1_000_000);
  }

  private static void printPlacement(Connection c) throws SQLException {
    System.out.println("Where each author landed (EXPLAIN ROUTE SELECT ... WHERE author_id = ?):");
    try (PreparedStatement ps = c.prepareStatement("SELECT author_id, name FROM authors WHERE author_id = ?")) {
      for (int i = 0; i < AUTHORS.size(); i++) {
        long author = 1_000L + i;
        try (Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("EXPLAIN ROUTE SELECT * FROM authors WHERE author_id = " + author)) {
          rs.next();
          System.out.printf("  author %d %-7s -> shard %d%n", author, AUTHORS.get(i), rs.getInt("shard_id"));
        }
      }
    }
  }

  private static void printRowsPerShard(Connection c) throws SQLException {
    System.out.println();
    System.out.println("Rows per shard (/* shardex:shard=N */ SELECT COUNT(*) ...):");
    System.out.printf("  %-6s %8s %6s %9s%n", "shard", "authors", "posts", "comments");
    for (int shard = 0; shard < shardCount(c); shard++) {
      System.out.printf("  %-6d %8d %6d %9d%n", shard, count(c, shard, "authors"), count(c, shard, "posts"),
          count(c, shard, "comments"));
    }
  }

  private static int shardCount(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN ROUTE SELECT * FROM authors")) {
      int n = 0;
      while (rs.next()) {
        n = Math.max(n, rs.getInt(1) + 1);
      }
      return n;
    }
  }

  private static long count(Connection c, int shard, String table) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("/* shardex:shard=" + shard + " */ SELECT COUNT(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static void printTimeline(Blog blog, long author) throws SQLException {
    System.out.println();
    System.out.println("Timeline of author " + author + " (one shard, ORDER BY ... LIMIT 10):");
    for (String line : blog.timeline(author)) {
      System.out.println("  " + line);
    }
  }

  /**
   * Netlog's list cache over a scripted session: mostly page views (first pages most often), some
   * new posts; every new post bumps its author's revision, so no page is ever stale.
   */
  static PostLists scriptedSession(Connection c, long firstAuthor, int actions, long seed) throws SQLException {
    PostLists lists = new PostLists(c);
    java.util.Random r = new java.util.Random(seed);
    for (int i = 0; i < actions; i++) {
      int a = r.nextInt(AUTHORS.size());
      long author = firstAuthor + a;
      if (r.nextInt(10) == 0) {
        lists.publish(author, "Post " + i + " by " + AUTHORS.get(a), "...");
      } else {
        lists.page(author, r.nextInt(4) == 0 ? 1 : 0, 10);
      }
    }
    return lists;
  }

  private static void printListCache(Connection c) throws SQLException {
    int actions = 600;
    PostLists lists = scriptedSession(c, 1_000, actions, 7);
    System.out.println();
    System.out.println("Netlog's two-step reads (list query for a window of " + PostLists.WINDOW
        + " ids, cached by author + revision; details query by ids):");
    System.out.printf(java.util.Locale.ROOT, "  %d actions (page views and new posts): %d list lookups, %d reached the database, hit rate %.1f%%%n",
        actions, lists.requests(), lists.listQueries(), lists.hitRate() * 100);
  }

  private static void printRejected(Connection c) {
    System.out.println();
    System.out.println("A statement Shardex refuses rather than answering wrongly:");
    try (Statement s = c.createStatement()) {
      s.executeUpdate("UPDATE posts SET title = 'oops'");
    } catch (SQLException e) {
      System.out.println("  UPDATE posts SET title = 'oops'");
      System.out.println("  -> SQLState " + e.getSQLState() + ": " + e.getMessage());
    }
  }
}
