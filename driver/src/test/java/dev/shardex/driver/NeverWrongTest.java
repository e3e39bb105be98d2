package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 11's write and text classes: upserts that would collide across shards, key changes hidden
 * in expressions, INSERT without a column list, multi-statement texts with a refused part, and
 * what EXPLAIN ROUTE says of a merged read. (The SELECT classes are DifferentialTest's edge cases.)
 */
class NeverWrongTest {
  @BeforeAll
  static void schema() throws Exception {
    TestCluster.run(
        "/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS nw_accounts (id BIGINT NOT NULL PRIMARY KEY,"
            + " user_id BIGINT NOT NULL, email VARCHAR(40), n INT DEFAULT 0)",
        "/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS nw_emails (user_id BIGINT NOT NULL,"
            + " email VARCHAR(40) NOT NULL, n INT DEFAULT 0, PRIMARY KEY (user_id, email))",
        "/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS nw_plain (user_id BIGINT NOT NULL, label VARCHAR(20))",
        "/* shardex:global */ CREATE TABLE IF NOT EXISTS nw_merchants (id INT NOT NULL PRIMARY KEY, code VARCHAR(10))",
        "DELETE FROM nw_merchants", "INSERT INTO nw_merchants (id, code) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
  }

  private static SQLException refused(Statement s, String sql) {
    return assertThrows(SQLException.class, () -> s.execute(sql), sql);
  }

  /** Each row's first two columns as "a=b". */
  private static List<String> pairs(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      List<String> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(rs.getString(1) + "=" + rs.getString(2));
      }
      return rows;
    }
  }

  private static long count(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void upsertsIntoATableWhoseUniqueKeyLacksTheShardKeyAreRefusedByName() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO nw_accounts (id, user_id, email) VALUES (7001, 91001, 'a@x')");
      for (String sql : List.of("REPLACE INTO nw_accounts (id, user_id, email) VALUES (7001, 91002, 'b@x')",
          "INSERT INTO nw_accounts (id, user_id, email) VALUES (7001, 91002, 'b@x') ON DUPLICATE KEY UPDATE n = n + 1",
          "INSERT IGNORE INTO nw_accounts (id, user_id, email) VALUES (7001, 91002, 'b@x')",
          "REPLACE INTO nw_accounts SET id = 7001, user_id = 91002")) {
        SQLException e = refused(s, sql);
        assertEquals("0AS00", e.getSQLState(), sql);
        assertTrue(e.getMessage().startsWith("Shardex SHX1211: "), e.getMessage());
        assertTrue(e.getMessage().contains("nw_accounts is refused: its PRIMARY KEY (id) does not contain the shard key"
            + " user_id"), e.getMessage());
      }
      assertEquals(1, count(s, "SELECT COUNT(*) FROM nw_accounts WHERE id = 7001"), "no duplicate on another shard");
    }
  }

  @Test
  void upsertsIntoATableKeyedByTheShardKeyRunAndReplace() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("REPLACE INTO nw_emails (user_id, email, n) VALUES (91010, 'a@x', 1)");
      s.execute("REPLACE INTO nw_emails (user_id, email, n) VALUES (91010, 'a@x', 2)");
      s.execute("INSERT INTO nw_emails (user_id, email, n) VALUES (91010, 'a@x', 5) ON DUPLICATE KEY UPDATE n = n + 10,"
          + " user_id = VALUES(user_id)");
      s.execute("INSERT IGNORE INTO nw_emails (user_id, email, n) VALUES (91010, 'a@x', 99)");
      assertEquals(12, count(s, "SELECT SUM(n) FROM nw_emails WHERE user_id = 91010"));
      assertEquals(1, count(s, "SELECT COUNT(*) FROM nw_emails WHERE user_id = 91010"));
    }
  }

  @Test
  void onDuplicateKeyUpdateOfTheKeyToAnExpressionIsAKeyChange() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException e = refused(s, "INSERT INTO nw_emails (user_id, email, n) VALUES (91011, 'a@x', 1)"
          + " ON DUPLICATE KEY UPDATE user_id = user_id + 1");
      assertTrue(e.getMessage().startsWith("Shardex SHX1203: UPDATE of table nw_emails sets its shard key user_id in ON"
          + " DUPLICATE KEY UPDATE to an expression"), e.getMessage());
      assertEquals("0AS00", e.getSQLState());
    }
  }

  @Test
  void insertWithoutAColumnListRoutesByTheTablesColumns() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO nw_plain VALUES (91020, 'one'), (91021, 'two')");
      var store = TestCluster.cluster(c).directory().store();
      for (long u : new long[] {91020, 91021}) {
        int shard = store.lookup(KeySpace.DEFAULT, Long.toString(u)).shardId();
        assertEquals(1, TestCluster.countOnShard(shard, "nw_plain", "user_id = " + u), "user " + u + " on its shard");
      }
      // a column added through the driver is known at once
      s.execute("ALTER TABLE nw_plain ADD COLUMN IF NOT EXISTS extra INT");
      s.execute("INSERT INTO nw_plain VALUES (91022, 'three', 3)");
      assertEquals(3, count(s, "SELECT extra FROM nw_plain WHERE user_id = 91022"));
    }
  }

  @Test
  void aUniqueKeyAddedThroughTheDriverIsSeenByTheNextUpsert() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS nw_later (user_id BIGINT NOT NULL,"
          + " code VARCHAR(10) NOT NULL, PRIMARY KEY (user_id, code))");
      s.execute("REPLACE INTO nw_later (user_id, code) VALUES (91030, 'x')");
      s.execute("ALTER TABLE nw_later ADD UNIQUE KEY nw_later_code (code)");
      SQLException e = refused(s, "REPLACE INTO nw_later (user_id, code) VALUES (91031, 'x')");
      assertTrue(e.getMessage().contains("its UNIQUE KEY nw_later_code (code) does not contain the shard key"),
          e.getMessage());
    }
  }

  @Test
  void schemasAreReadLazilyOncePerTable() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      var schemas = TestCluster.cluster(c).schemas();
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS nw_lazy (user_id BIGINT NOT NULL PRIMARY KEY)");
      s.execute("SELECT * FROM nw_lazy WHERE user_id = 1");
      TestCluster.cluster(c).directory().pollNow(); // the CREATE's own change-log entry, applied before counting
      long before = schemas.loads();
      s.execute("REPLACE INTO nw_lazy VALUES (91040)");
      s.execute("REPLACE INTO nw_lazy VALUES (91041)");
      s.execute("INSERT IGNORE INTO nw_lazy VALUES (91042)");
      assertEquals(before + 1, schemas.loads(), "one information_schema read for three upserts");
    }
  }

  @Test
  void aTableChangeInTheDirectoryChangeLogRereadsItsSchema() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS nw_logged (user_id BIGINT NOT NULL PRIMARY KEY)");
      var cluster = TestCluster.cluster(c);
      cluster.directory().pollNow(); // the CREATE's own change-log entry is applied before counting
      s.execute("REPLACE INTO nw_logged VALUES (91070)");
      long before = cluster.schemas().loads();
      s.execute("REPLACE INTO nw_logged VALUES (91071)");
      assertEquals(before, cluster.schemas().loads(), "cached");
      var def = cluster.directory().table("nw_logged");
      cluster.directory().store().declareTable(def); // another client re-declares it: a TABLE change in the log
      cluster.directory().pollNow();
      s.execute("REPLACE INTO nw_logged VALUES (91072)");
      assertEquals(before + 1, cluster.schemas().loads(), "read again after the change log named the table");
    }
  }

  @Test
  void aMultiStatementTextWithARefusedPartRunsNoPart() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO nw_plain (user_id, label) VALUES (91050, 'keep'), (91051, 'keep')");
      SQLException e = refused(s, "DELETE FROM nw_plain WHERE user_id = 91050; DELETE FROM nw_plain WHERE user_id = 91051;"
          + " DELETE FROM nw_plain WHERE label = 'keep'");
      assertTrue(e.getMessage().startsWith("Shardex SHX1201: "), e.getMessage());
      assertEquals(2, count(s, "SELECT COUNT(*) FROM nw_plain WHERE user_id IN (91050, 91051)"), "neither DELETE ran");
      SQLException merge = refused(s, "DELETE FROM nw_plain WHERE user_id = 91050;"
          + " SELECT label, COUNT(*) FROM nw_plain GROUP BY label WITH ROLLUP");
      assertTrue(merge.getMessage().startsWith("Shardex SHX1207: "), merge.getMessage());
      assertEquals(2, count(s, "SELECT COUNT(*) FROM nw_plain WHERE user_id IN (91050, 91051)"), "the DELETE did not run");
    }
  }

  @Test
  void aGlobalReadWithAShardedSubqueryIsAnsweredOnceOrRefusedNeverRepeated() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO nw_plain (user_id, label) VALUES (91060, 'keep')");
      SQLException e = refused(s, "SELECT code, (SELECT label FROM nw_plain p WHERE p.label = m.code LIMIT 1) AS e"
          + " FROM nw_merchants m");
      assertTrue(e.getMessage().contains("its SHARDED table nw_plain is read only inside a subquery"), e.getMessage());
      assertEquals(List.of("a=keep", "b=keep", "c=keep"), pairs(s, "SELECT code, (SELECT MAX(label) FROM nw_plain"
          + " WHERE label = 'keep') AS e FROM nw_merchants ORDER BY code"), "uncorrelated: run first, its value in, each merchant once");
      assertEquals(List.of("a=keep", "b=keep", "c=keep"), pairs(s, "SELECT code, (SELECT label FROM nw_plain WHERE user_id = 91060)"
          + " AS e FROM nw_merchants ORDER BY code"), "with the key: one shard, each merchant once");
    }
  }

  @Test
  void explainRouteShowsTheMergeTheClientRuns() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN ROUTE SELECT label, COUNT(*) AS n FROM nw_plain GROUP BY label"
            + " HAVING COUNT(*) > 1 ORDER BY n DESC LIMIT 3")) {
      assertEquals("merge", rs.getMetaData().getColumnLabel(3));
      int shards = 0;
      List<String> tree = new ArrayList<>();
      while (rs.next()) {
        tree.add(rs.getString("step") + " " + rs.getString("operator").replaceAll("[:(].*", ""));
        if (rs.getString("sql_sent") == null) {
          continue; // a client operator
        }
        shards++;
        assertEquals("merge on the client: fold rows with equal col 1 into one group each; aggregates col 2 COUNT;"
            + " HAVING COUNT(*) > ?1 on the merged groups; ORDER BY col 2 DESC after the merge; LIMIT 3",
            rs.getString(3));
      }
      assertEquals(TestCluster.SHARDS, shards);
      assertEquals(List.of("1 Project", "1.1 Limit", "1.1.1 Sort by col 2 DESC", "1.1.1.1 Filter", "1.1.1.1.1 Aggregate"),
          tree.subList(0, 5), "the client's operators, root first");
      assertEquals("1.1.1.1.1.1 Route", tree.get(5));
    }
  }
}
