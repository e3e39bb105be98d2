package dev.shardex.driver.sql;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.vocabulary.TableDef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a cross-shard join is cut into its driving and dependent statements, over a fixed catalog. */
class JoinSplitterTest {
  static final Map<String, List<String>> COLUMNS = Map.of(
      "comments", List.of("comment_id", "user_id", "post_id", "stars", "body"),
      "posts", List.of("post_id", "user_id", "title", "likes", "category"));

  /** Both tables sharded by user_id; posts also routable by post_id; text columns utf8mb4_general_ci, the rest BIGINT. */
  static final JoinSplitter.Catalog CATALOG = new JoinSplitter.Catalog() {
    @Override
    public TableDef def(String table) {
      return COLUMNS.containsKey(table) ? TableDef.sharded(table, "default", "user_id") : null;
    }

    @Override
    public List<String> columns(String table) {
      return COLUMNS.getOrDefault(table, List.of());
    }

    @Override
    public boolean routable(String table, String column) {
      return column.equals("user_id") || (table.equals("posts") && column.equals("post_id"));
    }

    @Override
    public String type(String table, String column) {
      return List.of("title", "body", "category").contains(column) ? "varchar(64) utf8mb4_general_ci" : "bigint(20)";
    }
  };

  private static JoinSplit split(String sql) throws Exception {
    return JoinSplitter.split(sql, CATALOG);
  }

  @Test
  void leftJoin_whereRejectingNullsOnTheDependentSide_isAnInnerJoin() throws Exception {
    for (String where : List.of("p.likes <> ?", "p.title LIKE ?", "p.category IS NOT NULL", "p.likes IN (?, ?)",
        "p.likes BETWEEN ? AND ?", "c.stars = ? AND p.likes > ?")) {
      JoinSplit s = split("SELECT c.post_id, p.title FROM comments c LEFT JOIN posts p ON c.post_id = p.post_id WHERE " + where);
      assertFalse(s.left(), where + ": padded rows never pass it");
      assertTrue(s.dependent().contains("WHERE"), s.dependent());
    }
  }

  @Test
  void leftJoin_whereKeepingNulls_staysLeftOrIsRefused() throws Exception {
    assertTrue(split("SELECT c.post_id, p.title FROM comments c LEFT JOIN posts p ON c.post_id = p.post_id WHERE c.stars = ?").left());
    for (String where : List.of("p.likes IS NULL", "COALESCE(p.likes, 0) = 0", "p.likes <=> ?", "(p.likes = ? OR p.likes IS NULL)")) {
      String sql = "SELECT c.post_id, p.title FROM comments c LEFT JOIN posts p ON c.post_id = p.post_id WHERE " + where;
      try {
        assertTrue(split(sql).left(), where);
      } catch (JoinSplitter.Refused e) {
        assertTrue(e.getMessage().contains("one side"), e.getMessage());
      }
    }
  }

  @Test
  void innerJoin_dependentPredicatesGoToTheDependentStatement() throws Exception {
    JoinSplit s = split("SELECT c.post_id, p.title FROM comments c JOIN posts p ON c.post_id = p.post_id WHERE p.likes > ? AND c.stars = ?");
    assertTrue(s.dependent().contains("likes"), s.dependent());
    assertFalse(s.driving().contains("likes"), s.driving());
  }
}
