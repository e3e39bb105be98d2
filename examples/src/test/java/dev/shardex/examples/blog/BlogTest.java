package dev.shardex.examples.blog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.sandbox.SandboxCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The blog example on a 3-shard sandbox: each author's rows live together, and the demo runs. */
class BlogTest {
  static final String URL = "jdbc:shardex:sandbox:blogtest?shards=3";
  static final int SHARDS = 3;
  /** Ids of this test's authors; BlogDemo uses 1000..1011 on the same sandbox. */
  static final long FIRST_AUTHOR = 5_000;
  static final int AUTHORS = 6;

  private static SandboxCluster sandbox() {
    return SandboxCluster.shared("blogtest", SHARDS);
  }

  private static long countOnShard(int shard, String table, long author) throws SQLException {
    try (Connection c = sandbox().connectShard(shard);
        PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE author_id = ?")) {
      ps.setLong(1, author);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  @Test
  void blog_authorsPostsAndComments_eachAuthorOnOneShardWithTimeline() throws Exception {
    try (Connection c = DriverManager.getConnection(URL)) {
      Blog blog = new Blog(c);
      blog.createSchema();
      for (int a = 0; a < AUTHORS; a++) {
        long author = FIRST_AUTHOR + a;
        // Start clean if an earlier run in this JVM left rows (the sandbox lives as long as the JVM).
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM comments WHERE author_id = ?")) {
          ps.setLong(1, author);
          ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM posts WHERE author_id = ?")) {
          ps.setLong(1, author);
          ps.executeUpdate();
        }
        blog.addAuthor(author, "author" + a);
      }
      // Author a writes a + 1 posts; post p of author a gets p comments from other authors.
      for (int a = 0; a < AUTHORS; a++) {
        long author = FIRST_AUTHOR + a;
        for (int p = 1; p <= a + 1; p++) {
          long post = blog.publish(author, "A" + a + " post " + p, "body");
          for (int k = 0; k < p; k++) {
            blog.comment(author, post, FIRST_AUTHOR + (a + k + 1) % AUTHORS, "comment " + k);
          }
          Thread.sleep(2); // distinct creation times, so "newest first" is well defined
        }
      }

      Set<Integer> shardsUsed = new HashSet<>();
      for (int a = 0; a < AUTHORS; a++) {
        long author = FIRST_AUTHOR + a;
        int home = -1;
        for (int shard = 0; shard < SHARDS; shard++) {
          long authors = countOnShard(shard, "authors", author);
          long posts = countOnShard(shard, "posts", author);
          long comments = countOnShard(shard, "comments", author);
          if (authors + posts + comments > 0) {
            assertEquals(-1, home, "author " + author + " has rows on shards " + home + " and " + shard);
            home = shard;
            assertEquals(1, authors, "author row of " + author);
            assertEquals(a + 1, posts, "posts of " + author + " all on shard " + shard);
            assertEquals((a + 1) * (a + 2) / 2, comments, "comments on " + author + "'s posts all on shard " + shard);
          }
        }
        assertTrue(home >= 0, "author " + author + " is stored somewhere");
        shardsUsed.add(home);
      }
      assertTrue(shardsUsed.size() >= 2, "new authors are spread over the shards: " + shardsUsed);

      for (int a = 0; a < AUTHORS; a++) {
        List<String> expected = new ArrayList<>();
        for (int p = a + 1; p >= 1; p--) {
          expected.add("A" + a + " post " + p + " (" + p + " comments)");
        }
        assertEquals(expected, blog.timeline(FIRST_AUTHOR + a), "timeline of author " + (FIRST_AUTHOR + a));
      }
    }
  }

  @Test
  void timeline_moreThanTenPosts_newestTen() throws Exception {
    long author = FIRST_AUTHOR + 100;
    try (Connection c = DriverManager.getConnection(URL)) {
      Blog blog = new Blog(c);
      blog.createSchema();
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM posts WHERE author_id = ?")) {
        ps.setLong(1, author);
        ps.executeUpdate();
      }
      blog.addAuthor(author, "prolific");
      for (int p = 1; p <= 12; p++) {
        blog.publish(author, "P" + p, "body");
        Thread.sleep(2);
      }
      List<String> timeline = blog.timeline(author);
      assertEquals(10, timeline.size());
      assertEquals("P12 (0 comments)", timeline.get(0));
      assertEquals("P3 (0 comments)", timeline.get(9));
    }
  }

  @Test
  void blogDemo_main_printsTruePlacementOfTwelveAuthorsAndARefusal() throws Exception {
    String previous = System.getProperty("shardex.url");
    PrintStream stdout = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setProperty("shardex.url", URL);
    try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
      System.setOut(capture);
      BlogDemo.main(new String[0]);
    } finally {
      System.setOut(stdout);
      if (previous == null) {
        System.clearProperty("shardex.url");
      } else {
        System.setProperty("shardex.url", previous);
      }
    }
    String out = captured.toString(StandardCharsets.UTF_8);
    List<String> placements = out.lines().filter(l -> l.contains("-> shard")).toList();
    assertEquals(12, placements.size(), out);
    for (int i = 0; i < placements.size(); i++) {
      String line = placements.get(i);
      assertTrue(line.matches("\\s*author " + (1_000 + i) + " \\S+\\s+-> shard [0-2]"), line);
      int shard = Integer.parseInt(line.substring(line.lastIndexOf(' ') + 1));
      assertEquals(1, countOnShard(shard, "authors", 1_000 + i), "EXPLAIN ROUTE told the truth: " + line);
    }
    assertTrue(out.lines().anyMatch(l -> l.contains("-> SQLState 0AS00: Shardex SHX1201")), out);
    List<String> timeline = out.lines().dropWhile(l -> !l.startsWith("Timeline of author 1003")).skip(1)
        .takeWhile(l -> !l.isBlank()).map(String::strip).toList();
    assertEquals(List.of("Post 3 by dara (1 comments)", "Post 2 by dara (1 comments)", "Post 1 by dara (1 comments)"),
        timeline, out);
    assertTrue(out.contains("Done in "), out);
  }

  @Test
  void listCache_servesPagesFromAWindow_andANewPostIsSeenAtOnce() throws Exception {
    try (Connection c = DriverManager.getConnection(URL)) {
      new Blog(c).createSchema();
      PostLists lists = new PostLists(c);
      long author = 5_900;
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM posts WHERE author_id = ?")) {
        ps.setLong(1, author);
        ps.executeUpdate();
      }
      for (int i = 0; i < 130; i++) {
        lists.publish(author, "p" + i, "body");
      }
      for (int page = 0; page < 13; page++) {
        assertEquals(lists.pageUncached(author, page, 10), lists.page(author, page, 10), "page " + page);
      }
      assertEquals(2, lists.listQueries(), "pages 0-9 come from the first window of 100, 10-12 from the second");
      assertEquals("p129", lists.page(author, 0, 10).get(0).title());
      long queries = lists.listQueries();
      lists.publish(author, "fresh", "body");
      assertEquals("fresh", lists.page(author, 0, 10).get(0).title(), "the revision bump makes the new post visible at once");
      assertEquals(queries + 1, lists.listQueries());
    }
    try (Connection c = DriverManager.getConnection(URL)) {
      PostLists session = BlogDemo.scriptedSession(c, 6_000, 300, 3);
      assertTrue(session.hitRate() > 0.5, "most page views are served from the list cache: " + session.hitRate());
      assertEquals(session.requests() - Math.round(session.hitRate() * session.requests()), session.listQueries());
    }
  }
}
