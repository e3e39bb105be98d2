package dev.shardex.driver.joins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Window functions over SHARDED tables, each compared with one plain MariaDB server holding the same
 * rows. A window partitioned by the shard key (of the table the rows come from, by alias, or of a
 * table joined to it on the key) has each partition on one shard: every shard computes it, and the
 * rows merge as any scatter's (no buffering, no cap). Any other window over several shards is run
 * whole by one shard over the rows (PushBack, at most shardex.maxMergeRows of them) or refused by
 * name: never computed per shard. Every window orders totally (ties broken by id), so one server's
 * answer is the answer.
 */
class WindowTest {
  static final List<String> DDL = List.of(
      "CREATE TABLE xw_posts (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL, category VARCHAR(16) COLLATE utf8mb4_general_ci NULL,"
          + " likes INT NULL, created_at DATETIME NOT NULL) COMMENT='shardex:sharded key=user_id'",
      "CREATE TABLE xw_likes (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL, post_id BIGINT NOT NULL, weight INT NULL)"
          + " COMMENT='shardex:sharded key=user_id'",
      "CREATE TABLE xw_tags (code VARCHAR(8) PRIMARY KEY, label VARCHAR(32)) COMMENT='shardex:global'");
  static final String[] CATEGORIES = {"news", "NEWS", "sport", null, "Tech"};

  @RegisterExtension static final Oracle.Loader LOADER = new Oracle.Loader();
  static Connection oracle;

  @BeforeAll
  static void load() throws SQLException {
    List<String> rows = new ArrayList<>();
    StringBuilder posts = new StringBuilder("INSERT INTO xw_posts VALUES ");
    for (int id = 1; id <= 90; id++) {
      String category = CATEGORIES[id % CATEGORIES.length];
      posts.append(id == 1 ? "" : ", ").append("(").append(id).append(", ").append(id * 7 % 12 + 1).append(", ")
          .append(category == null ? "NULL" : "'" + category + "'").append(", ").append(id % 9 == 0 ? "NULL" : id * 13 % 20)
          .append(", '2026-01-01' + INTERVAL ").append(id * 37 % 90).append(" HOUR)");
    }
    rows.add(posts.toString());
    StringBuilder likes = new StringBuilder("INSERT INTO xw_likes VALUES ");
    for (int id = 1; id <= 70; id++) {
      int post = id * 11 % 90 + 1; // a like of a post by its own author (same user_id), or of none
      likes.append(id == 1 ? "" : ", ").append("(").append(id).append(", ").append(post * 7 % 12 + 1).append(", ")
          .append(id % 5 == 0 ? 1000 + id : post).append(", ").append(id % 6 == 0 ? "NULL" : id % 4).append(")");
    }
    rows.add(likes.toString());
    rows.add("INSERT INTO xw_tags VALUES ('b', 'Bee'), ('a', 'Ay'), ('c', 'See')");
    oracle = LOADER.load(List.of("xw_posts", "xw_likes", "xw_tags"), DDL, rows);
  }

  static void same(String sql, boolean ordered, Object... args) throws SQLException {
    Oracle.same(oracle, sql, ordered, args);
  }

  @Test
  void partitionedByTheKey_eachShardComputesItsWindows_andTheRowsMergeAsAnyScatter() throws SQLException {
    String rn = "SELECT id, user_id, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY created_at, id) AS rn FROM xw_posts";
    same(rn, false);
    same(rn + " ORDER BY rn, id LIMIT 7", true);
    same(rn + " WHERE likes > ? ORDER BY rn DESC, id LIMIT 5 OFFSET 2", true, 4);
    same("SELECT id, SUM(likes) OVER (PARTITION BY user_id ORDER BY id) AS running, RANK() OVER (PARTITION BY user_id"
        + " ORDER BY likes DESC) AS r, DENSE_RANK() OVER (PARTITION BY user_id, category ORDER BY likes) AS d,"
        + " COUNT(*) OVER (PARTITION BY user_id) AS n FROM xw_posts", false);
    same("SELECT id, LAG(likes) OVER w AS prev, FIRST_VALUE(id) OVER w AS first FROM xw_posts"
        + " WINDOW w AS (PARTITION BY user_id ORDER BY created_at, id)", false);
    same("SELECT DISTINCT user_id, COUNT(*) OVER (PARTITION BY user_id) AS n FROM xw_posts ORDER BY n DESC, user_id", true);
    same(rn + " WHERE user_id IN (?, ?, ?)", false, 1, 2, 3);
    // one statement per shard under the merge: no PushBack, no Materialize
    assertEquals(List.of("1 MergeSort", "1.1 Route", "1.1 Route", "1.1 Route", "1.1 Route"), UnionTest.tree(rn + " ORDER BY rn, id LIMIT 7"));
    assertEquals(List.of("1 Concatenate the shards' rows", "1.1 Route", "1.1 Route", "1.1 Route", "1.1 Route"), UnionTest.tree(rn));
  }

  @Test
  void partitionedByTheKeyThroughAnAliasOrACoLocatedJoin() throws SQLException {
    same("SELECT p.id, COUNT(*) OVER (PARTITION BY p.user_id) AS n FROM xw_posts AS p WHERE p.likes < 10", false);
    same("SELECT p.id, l.id AS like_id, ROW_NUMBER() OVER (PARTITION BY l.user_id ORDER BY l.id) AS rn,"
        + " SUM(l.weight) OVER (PARTITION BY p.user_id ORDER BY l.id) AS w FROM xw_posts p JOIN xw_likes l"
        + " ON l.user_id = p.user_id AND l.post_id = p.id", false);
    assertEquals(List.of("1 Concatenate the shards' rows", "1.1 Route", "1.1 Route", "1.1 Route", "1.1 Route"),
        UnionTest.tree("SELECT p.id, COUNT(*) OVER (PARTITION BY p.user_id) AS n FROM xw_posts p"));
  }

  @Test
  void aWindowInOrderBy_partitionedByTheKey_sortsTheMergedRows() throws SQLException {
    same("SELECT id FROM xw_posts ORDER BY ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY id DESC), id LIMIT 10", true);
  }

  @Test
  void aDerivedTableOfKeyPartitionedWindows_runsInsideEachShardsStatement() throws SQLException {
    String top2 = "SELECT d.user_id, d.id FROM (SELECT id, user_id, ROW_NUMBER() OVER (PARTITION BY user_id"
        + " ORDER BY likes DESC, id) AS rn FROM xw_posts) d WHERE d.rn <= 2";
    same(top2, false);
    same(top2 + " ORDER BY d.user_id, d.id", true);
    assertEquals(List.of("1 Route", "1 Route", "1 Route", "1 Route"), UnionTest.tree(top2), "the shards' rows concatenated");
  }

  @Test
  void anyOtherWindowOverSeveralShards_isRunByOneServerOverTheRows_neverPerShard() throws SQLException {
    same("SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS rn FROM xw_posts", false);
    same("SELECT id, RANK() OVER (PARTITION BY category ORDER BY likes, id) AS r FROM xw_posts", false);
    same("SELECT id, COUNT(*) OVER () AS n, SUM(likes) OVER () AS s FROM xw_posts WHERE user_id IN (1, 2)", false);
    same("SELECT id, ROW_NUMBER() OVER w AS rn FROM xw_posts WINDOW w AS (ORDER BY id DESC)", false);
    // partitioned by the key of the NULL-supplying side: its NULL partition spans every shard
    same("SELECT p.id, COUNT(*) OVER (PARTITION BY l.user_id) AS n FROM xw_posts p LEFT JOIN xw_likes l"
        + " ON l.user_id = p.user_id AND l.post_id = p.id", false);
    // windows over grouped rows
    same("SELECT user_id, COUNT(*) AS c, RANK() OVER (PARTITION BY user_id ORDER BY COUNT(*)) AS r FROM xw_posts"
        + " GROUP BY user_id", false);
    // a select alias named as the key: not taken for the key
    same("SELECT id, likes AS user_id, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY id) AS rn FROM xw_posts", false);
    String tree = UnionTest.tree("SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS rn FROM xw_posts").get(0);
    assertEquals("1 PushBack", tree);
  }

  @Test
  void aWindowNotPartitionedByTheKey_inOrderByOrADerivedTable_isNeverComputedPerShard() throws SQLException {
    refused("SELECT id FROM xw_posts ORDER BY ROW_NUMBER() OVER (ORDER BY created_at DESC, id), id LIMIT 6");
    same("SELECT d.id, d.rn FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY likes, id) AS rn FROM xw_posts) d WHERE d.rn <= 4",
        false);
    // before issue 20's section 4 these ran the window on each shard (EXPLAIN ROUTE showed it in each shard's text) and
    // merged by its per-shard numbers (the second would return one post per shard instead of user 1's first five)
    refusedOrSame("SELECT * FROM xw_posts ORDER BY ROW_NUMBER() OVER (ORDER BY created_at DESC, id) LIMIT 5");
    refusedOrSame("SELECT * FROM xw_posts ORDER BY ROW_NUMBER() OVER (ORDER BY user_id, id) LIMIT 5");
    // over a join whose tables live apart (not on the key): over the joined rows on one server, or refused
    refusedOrSame("SELECT p.id, l.id AS like_id, ROW_NUMBER() OVER (PARTITION BY p.user_id ORDER BY l.id) AS rn FROM xw_posts p"
        + " JOIN xw_likes l ON l.post_id = p.id ORDER BY p.id, l.id");
  }

  @Test
  void oneKeyAndGlobalOnly_runOnOneShardAsWritten() throws SQLException {
    String one = "SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS rn, COUNT(*) OVER () AS n FROM xw_posts"
        + " WHERE user_id = ?";
    same(one, false, 5);
    same("SELECT code, ROW_NUMBER() OVER (ORDER BY code) AS rn FROM xw_tags", false);
    assertEquals(List.of("1 Route"), UnionTest.tree("SELECT id, COUNT(*) OVER () AS n FROM xw_posts WHERE user_id = 5"));
  }

  @Test
  void pastTheCap_anUnpartitionedWindowIsRefusedByName_aKeyPartitionedOneIsStillAnswered() throws SQLException {
    try (Connection c = TestCluster.connect("shardex.maxMergeRows=20"); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> rows(s, "SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS rn"
          + " FROM xw_posts"));
      assertEquals("0AS00", e.getSQLState());
      assertTrue(e.getMessage().startsWith("Shardex SHX1207: "), e.getMessage());
      assertTrue(e.getMessage().contains("shardex.maxMergeRows"), e.getMessage());
      assertEquals(90, rows(s, "SELECT id, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY id) AS rn FROM xw_posts").size(),
          "each shard computes it: no row is buffered");
    }
  }

  /** Refused by name, naming the key to partition by. */
  private static void refused(String sql) throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> rows(s, sql));
      assertEquals("0AS00", e.getSQLState());
      assertEquals("Shardex SHX1207: SELECT needs shards 0, 1, 2, 3 but a window function not partitioned by xw_posts.user_id"
          + " (each shard would number, rank or add up only its own rows) is not supported; partition each window by it"
          + " (PARTITION BY xw_posts.user_id, ...), or add the key (key = ? or key IN (...) on one shard) to route it to one"
          + " shard", e.getMessage());
    }
  }

  /** Answered as one server answers it, or refused by name (SHX1207, SHX1206): never another answer. */
  private static void refusedOrSame(String sql) throws SQLException {
    try (Connection c = TestCluster.connect()) {
      List<String> expected = Oracle.answer(oracle, sql, true);
      List<String> got;
      try {
        got = Oracle.answer(c, sql, true);
      } catch (SQLException e) {
        assertTrue(e.getMessage().startsWith("Shardex SHX1207: ") || e.getMessage().startsWith("Shardex SHX1206: "),
            e.getMessage());
        assertEquals("0AS00", e.getSQLState());
        return;
      }
      assertEquals(expected, got, sql);
    }
  }

  private static List<String> rows(Statement s, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }
}
