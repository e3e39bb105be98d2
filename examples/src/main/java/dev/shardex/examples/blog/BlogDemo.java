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
        long author = 1_000 + i;
        blog.addAuthor(author, AUTHORS.get(i));
        for (int p = 1; p <= 3 + i % 3; p++) {
          long post = blog.publish(author, "Post " + p + " by " + AUTHORS.get(i), "Hello from " + AUTHORS.get(i));
          blog.comment(author, post, 1_000 + (i + p) % AUTHORS.size(), "Nice post, " + AUTHORS.get(i) + "!");
        }
      }
      printPlacement(c);
      printRowsPerShard(c);
      printTimeline(blog, 1_003);
      printRejected(c);
    }
    System.out.printf("%nDone in %d ms.%n", (System.nanoTime() - started) / 1_000_000);
  }

  private static void printPlacement(Connection c) throws SQLException {
    System.out.println("Where each author landed (EXPLAIN ROUTE SELECT ... WHERE author_id = ?):");
    try (PreparedStatement ps = c.prepareStatement("SELECT author_id, name FROM authors WHERE author_id = ?")) {
      for (int i = 0; i < AUTHORS.size(); i++) {
        long author = 1_000 + i;
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
