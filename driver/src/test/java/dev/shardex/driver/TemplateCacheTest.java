package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.shardex.driver.sql.TemplateCache;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Acceptance: the same SQL text is parsed once; plain statements differing in literals share it. */
class TemplateCacheTest {
  @BeforeAll
  static void schema() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS tc_notes (user_id BIGINT, note VARCHAR(40))",
        "INSERT INTO tc_notes (user_id, note) VALUES (71, 'a'), (71, 'b')");
  }

  @Test
  void aPreparedTextIsParsedOnceAcrossStatementsAndExecutions() throws Exception {
    try (Connection c = TestCluster.connect()) {
      TemplateCache cache = TestCluster.cluster(c).templates();
      String sql = "SELECT note FROM tc_notes WHERE user_id = ? ORDER BY note /* tc-prepared */";
      long before = cache.analyses();
      for (int i = 0; i < 3; i++) {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
          ps.setLong(1, 71);
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            assertEquals("a", rs.getString(1));
          }
          ps.setLong(1, 72);
          try (ResultSet rs = ps.executeQuery()) {
            assertEquals(false, rs.next());
          }
        }
      }
      assertEquals(before + 1, cache.analyses(), "one parse for three prepares and six executions");
    }
  }

  @Test
  void plainStatementsDifferingOnlyInLiteralsShareOneParse() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      TemplateCache cache = TestCluster.cluster(c).templates();
      long before = cache.analyses();
      for (long user = 71; user < 81; user++) {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM tc_notes WHERE user_id = " + user + " AND note <> 'zz' /* tc-plain */")) {
          rs.next();
          assertEquals(user == 71 ? 2 : 0, rs.getInt(1), "count for user " + user);
        }
      }
      assertEquals(before + 1, cache.analyses(), "ten texts, one normalised form, one parse");
    }
  }
}
