package dev.shardex.driver.joins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Joins between SHARDED tables that live apart (research joins-research.md §7, T1-T3, T13, T24), answered
 * by the cross-shard lookup join, each compared with one plain MariaDB server holding the same rows:
 * labels, types and rows (in order where the ORDER BY is total).
 */
class LookupJoinTest {
  static final List<String> DDL = List.of(
      "CREATE TABLE xj_users (id BIGINT PRIMARY KEY, name VARCHAR(64), country CHAR(2), referrer_id BIGINT NULL)"
          + " COMMENT='shardex:sharded key=id'",
      "CREATE TABLE xj_orders (id BIGINT PRIMARY KEY, seller_id BIGINT NOT NULL, buyer_id BIGINT NULL, status VARCHAR(16),"
          + " total DECIMAL(12,2) NULL, created_at DATETIME(3)) COMMENT='shardex:sharded key=seller_id lookup=id unique'",
      "CREATE TABLE xj_types (id INT PRIMARY KEY, name VARCHAR(20)) COMMENT='shardex:global'",
      "CREATE TABLE xj_pets (id INT PRIMARY KEY, owner_id BIGINT NOT NULL, type_id INT, name VARCHAR(30))"
          + " COMMENT='shardex:sharded key=owner_id lookup=id unique'",
      "CREATE TABLE xj_visits (id INT PRIMARY KEY, pet_id BIGINT NOT NULL, visit_date DATE, description VARCHAR(64))"
          + " COMMENT='shardex:sharded key=pet_id lookup=id unique'",
      "CREATE TABLE xj_codes (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL, code INT(6) ZEROFILL, small SMALLINT,"
          + " tiny TINYINT, medium MEDIUMINT, flag TINYINT(1), big BIGINT UNSIGNED, neg INT, buyer_id BIGINT)"
          + " COMMENT='shardex:sharded key=owner_id lookup=id unique'");

  static Connection oracle;

  @BeforeAll
  static void load() throws SQLException {
    List<String> rows = new ArrayList<>();
    StringBuilder users = new StringBuilder("INSERT INTO xj_users VALUES ");
    for (int id = 1; id <= 40; id++) {
      String referrer = id % 7 == 0 ? "NULL" : id % 5 == 0 ? Integer.toString(id) : Integer.toString((id * 13) % 40 + 1);
      users.append(id == 1 ? "" : ", ").append("(").append(id).append(", 'user ").append(id).append("', '")
          .append(id % 3 == 0 ? "NL" : "BE").append("', ").append(referrer).append(")");
    }
    rows.add(users.toString());
    StringBuilder orders = new StringBuilder("INSERT INTO xj_orders VALUES ");
    for (int id = 1; id <= 300; id++) {
      String buyer = id % 17 == 0 ? "NULL" : id % 19 == 0 ? "999" : Integer.toString((id * 7) % 40 + 1); // NULL and dangling buyers
      String total = id % 11 == 0 ? "NULL" : (id * 3) + "." + (id % 100);
      orders.append(id == 1 ? "" : ", ").append("(").append(id).append(", ").append(id % 6 + 1).append(", ").append(buyer)
          .append(", '").append(id % 4 == 0 ? "open" : "done").append("', ").append(total).append(", '2026-01-01 00:00:00' + INTERVAL ")
          .append(id).append(" MINUTE)");
    }
    rows.add(orders.toString());
    rows.add("INSERT INTO xj_types VALUES (1, 'cat'), (2, 'dog'), (3, 'bird')");
    rows.add("INSERT INTO xj_pets VALUES (1, 10, 1, 'Leo'), (2, 11, 2, 'Basil'), (3, 12, 3, 'Rosy'), (4, 13, NULL, 'Jewel')");
    rows.add("INSERT INTO xj_visits VALUES (1, 1, '2026-01-01', 'rabies shot'), (2, 1, '2026-02-01', 'neutered'),"
        + " (3, 3, '2026-03-01', 'spayed'), (4, 2, '2026-03-04', 'check')");
    StringBuilder codes = new StringBuilder("INSERT INTO xj_codes VALUES ");
    for (int id = 1; id <= 40; id++) {
      codes.append(id == 1 ? "" : ", ").append("(").append(id).append(", ").append(id % 3 + 1).append(", ")
          .append(id % 9 == 0 ? "NULL" : Integer.toString(id * 7)).append(", ").append(-id * 300).append(", ")
          .append(id % 2 == 0 ? -id : id).append(", ").append(id * 100_000).append(", ").append(id % 2).append(", ")
          .append(id == 1 ? "18446744073709551615" : Long.toString(id * 1_000_000_007L)).append(", ").append(-id).append(", ")
          .append((id * 7) % 40 + 1).append(")");
    }
    rows.add(codes.toString());
    oracle = Oracle.load(List.of("xj_users", "xj_orders", "xj_types", "xj_pets", "xj_visits", "xj_codes"), DDL, rows);
  }


  @AfterAll
  static void close() throws SQLException {
    if (oracle != null) {
      oracle.close();
    }
  }

  static void same(String sql, boolean ordered, Object... args) throws SQLException {
    Oracle.same(oracle, sql, ordered, args);
  }


  @Test
  void t1_innerLookupJoinFromOneSeller_dropsNullAndDanglingBuyers() throws SQLException {
    for (int seller = 1; seller <= 6; seller++) {
      same("SELECT o.id, o.total, u.name FROM xj_orders o JOIN xj_users u ON o.buyer_id = u.id WHERE o.seller_id = ?", false, seller);
    }
  }

  @Test
  void wholeNumberColumnsOnEitherSide_readAsOnOneServer_zeroFillUnsignedAndNegative() throws SQLException {
    // the join writes a signed whole number's text itself; ZEROFILL (padded) and UNSIGNED ones are the shard's
    for (int owner = 1; owner <= 3; owner++) {
      same("SELECT c.id, c.code, c.small, c.tiny, c.medium, c.flag, c.big, c.neg, u.id AS uid, u.name FROM xj_codes c"
          + " JOIN xj_users u ON c.buyer_id = u.id WHERE c.owner_id = ?", false, owner);
    }
    same("SELECT o.id, o.buyer_id, c.* FROM xj_orders o LEFT JOIN xj_codes c ON c.id = o.buyer_id WHERE o.seller_id = ?",
        false, 2);
  }

  @Test
  void t2_leftLookupJoin_padsNullAndDanglingBuyers() throws SQLException {
    same("SELECT o.id, o.buyer_id, u.name, u.country FROM xj_orders o LEFT JOIN xj_users u ON o.buyer_id = u.id"
        + " WHERE o.seller_id = ?", false, 5);
  }

  @Test
  void t3_scatteredDrivingSide_keepsItsOrderThroughLimitAndOffset() throws SQLException {
    same("SELECT o.*, u.name FROM xj_orders o JOIN xj_users u ON o.buyer_id = u.id WHERE o.status = 'open'"
        + " ORDER BY o.created_at DESC, o.id DESC LIMIT 20 OFFSET 40", true);
    same("SELECT o.id, u.name FROM xj_orders o LEFT JOIN xj_users u ON u.id = o.buyer_id ORDER BY o.id LIMIT ?, ?", true, 5, 30);
  }

  @Test
  void orderByPositionsAliasesAndTheDependentSide_sortsTheJoinedRows() throws SQLException {
    String join = "SELECT u.name AS buyer, o.id, o.total FROM xj_orders o JOIN xj_users u ON o.buyer_id = u.id WHERE o.seller_id = ?";
    same(join + " ORDER BY 1 DESC, 2", true, 4);
    same(join + " ORDER BY buyer, o.id DESC LIMIT 7 OFFSET 3", true, 2);
    same(join + " ORDER BY u.name, o.total DESC, o.id", true, 3);
    same("SELECT o.*, u.name FROM xj_orders o LEFT JOIN xj_users u ON u.id = o.buyer_id WHERE o.seller_id = ?"
        + " ORDER BY u.name, o.id LIMIT 15", true, 6);
    // terms the select list does not have: sorted by hidden columns, which the result does not show
    same("SELECT o.id FROM xj_orders o JOIN xj_users u ON o.buyer_id = u.id WHERE o.seller_id = ?"
        + " ORDER BY u.country DESC, COALESCE(o.total, 0), o.id", true, 5);
  }

  @Test
  void countingTheJoinedRows_asListScreensCountTheirPages() throws SQLException {
    same("SELECT COUNT(*) FROM xj_orders o JOIN xj_users u ON o.buyer_id = u.id WHERE o.seller_id = ?", false, 3);
    same("SELECT COUNT(*), COUNT(u.name) AS named, count(o.total) FROM xj_orders o LEFT JOIN xj_users u ON o.buyer_id = u.id",
        false);
    same("select count(p1_0.id) from xj_pets p1_0 left join xj_visits v1_0 on p1_0.id=v1_0.pet_id where p1_0.owner_id > ?",
        false, 10);
    same("SELECT COUNT(*) FROM xj_orders o JOIN xj_users u ON o.buyer_id = u.id WHERE o.seller_id = ? AND u.country = 'NL'",
        false, 99); // nothing joins: 0, one row
    try (Connection c = TestCluster.connect()) {
      String limited = "SELECT COUNT(*) FROM xj_orders o JOIN xj_users u ON o.buyer_id = u.id LIMIT 1 OFFSET 1";
      assertEquals(Oracle.answer(oracle, limited, false), Oracle.answer(c, limited, false), "OFFSET 1 skips the count's one row");
    }
  }

  @Test
  void t13_selfLeftJoin_referrerOnAnotherShard() throws SQLException {
    same("SELECT u.id, u.name, r.name AS referrer FROM xj_users u LEFT JOIN xj_users r ON r.id = u.referrer_id"
        + " WHERE u.id IN (?, ?, ?, ?, ?)", false, 5, 7, 8, 14, 22);
  }

  @Test
  void threeShardedTables_peeledOneAtATime() throws SQLException {
    same("SELECT o.id, u.name AS buyer, r.name AS referrer FROM xj_orders o JOIN xj_users u ON u.id = o.buyer_id"
        + " LEFT JOIN xj_users r ON r.id = u.referrer_id WHERE o.seller_id = ? ORDER BY o.id", true, 3);
  }

  @Test
  void t7_t9_inAndNotInSubqueriesRunFirst_withNullAndEmptyAnswersAsOnOneServer() throws SQLException {
    same("SELECT * FROM xj_users WHERE id IN (SELECT buyer_id FROM xj_orders WHERE seller_id = ?)", false, 2);
    same("SELECT u.id FROM xj_users u WHERE u.id NOT IN (SELECT buyer_id FROM xj_orders WHERE seller_id = ?)"
        + " AND u.country = 'NL'", false, 99); // no orders: every NL user
    try (Connection c = TestCluster.connect()) {
      // seller 6 has an order whose buyer is NULL: NOT IN is never true, on one server and here
      String nullBuyer = "SELECT u.id FROM xj_users u WHERE u.id NOT IN (SELECT buyer_id FROM xj_orders WHERE seller_id = ?)";
      assertEquals(Oracle.answer(oracle, nullBuyer, false, 6), Oracle.answer(c, nullBuyer, false, 6));
      assertEquals(1, Oracle.answer(c, nullBuyer, false, 6).size(), "only the header: no row");
    }
    same("SELECT id, id IN (SELECT buyer_id FROM xj_orders WHERE seller_id = 6) AS bought FROM xj_users ORDER BY id", true);
    same("SELECT name FROM xj_types WHERE id IN (SELECT type_id FROM xj_pets WHERE owner_id > ?)", false, 10);
  }

  @Test
  void aggregatesOverAJoin_runByOneServerOverTheJoinedRows() throws SQLException {
    same("SELECT u.country, COUNT(*), SUM(o.total), MIN(o.total), MAX(o.created_at) FROM xj_orders o JOIN xj_users u"
        + " ON o.buyer_id = u.id GROUP BY u.country ORDER BY u.country", true);
    same("SELECT u.country, COUNT(DISTINCT o.buyer_id) AS buyers, AVG(o.total) FROM xj_orders o LEFT JOIN xj_users u"
        + " ON o.buyer_id = u.id WHERE o.seller_id IN (?, ?) GROUP BY u.country HAVING buyers > 1", false, 2, 3);
    same("SELECT DISTINCT u.country, o.status FROM xj_orders o JOIN xj_users u ON o.buyer_id = u.id", false);
    same("SELECT o.status, GROUP_CONCAT(DISTINCT u.name ORDER BY u.name SEPARATOR '; ') AS names FROM xj_orders o"
        + " JOIN xj_users u ON o.buyer_id = u.id WHERE o.seller_id = ? GROUP BY o.status", false, 4);
    same("SELECT SUM(o.total) * 2 + COUNT(u.id) FROM xj_orders o LEFT JOIN xj_users u ON o.buyer_id = u.id"
        + " WHERE o.seller_id = ?", false, 1);
    same("SELECT u.name, COUNT(*) AS n FROM xj_orders o JOIN xj_users u ON o.buyer_id = u.id GROUP BY u.name"
        + " ORDER BY n DESC, u.name LIMIT ?", true, 5);
  }

  @Test
  void whatTheMergeCannotFold_isRunByOneServerOverTheRows() throws SQLException {
    same("SELECT status, GROUP_CONCAT(id ORDER BY id DESC SEPARATOR '/') AS ids FROM xj_orders WHERE seller_id IN (1, 2)"
        + " GROUP BY status", false);
    same("SELECT status, COUNT(*), SUM(total) FROM xj_orders GROUP BY status WITH ROLLUP", false);
    same("SELECT id, total, RANK() OVER (PARTITION BY status ORDER BY total DESC, id) AS r FROM xj_orders"
        + " WHERE seller_id = ? OR seller_id = ?", false, 3, 4);
    same("SELECT MAX(total) - MIN(total), ROUND(AVG(total), 1) FROM xj_orders", false);
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN ROUTE SELECT status, GROUP_CONCAT(id) FROM xj_orders GROUP BY status")) {
      List<String> ops = new ArrayList<>();
      while (rs.next()) {
        ops.add(rs.getString("step") + " " + rs.getString("operator").replaceAll("[:(].*", ""));
      }
      assertEquals(List.of("1 PushBack", "1.1 Materialize", "1.1.1 Route", "1.2 Route"), ops);
    }
  }

  @Test
  void aggregatesOverAnEmptyJoin_oneRowOfNulls() throws SQLException {
    same("SELECT COUNT(o.id), SUM(o.total), MAX(u.name) FROM xj_orders o JOIN xj_users u ON o.buyer_id = u.id"
        + " WHERE o.seller_id = ?", false, 99);
  }

  @Test
  void explainRoute_showsBothSteps() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN ROUTE SELECT o.id, u.name FROM xj_orders o JOIN xj_users u ON o.buyer_id = u.id"
            + " WHERE o.seller_id = 2")) {
      assertTrue(rs.next());
      assertEquals("1", rs.getString("step"));
      assertNull(rs.getString(2), "the join runs on the client: it sends nothing itself");
      assertTrue(rs.getString("operator").startsWith("LookupJoin (inner) on xj_users.id"), rs.getString("operator"));
      assertTrue(rs.next());
      assertEquals(null, rs.getObject(1));
      assertEquals("1.1", rs.getString("step"));
      assertTrue(rs.getString(2).contains("FROM xj_orders o WHERE o.seller_id = ?"), rs.getString(2));
      assertTrue(rs.next());
      assertEquals("1.2", rs.getString("step"));
      assertTrue(rs.getString(2).contains("FROM xj_users u WHERE u.id IN (?, ...)"), rs.getString(2));
      assertTrue(rs.getString(3).contains("step 2: xj_users rows by id IN"), rs.getString(3));
      assertFalse(rs.next());
    }
  }

  @Test
  void explainAnalyzeRoute_countsEachStep() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN ANALYZE ROUTE SELECT o.id, u.name FROM xj_orders o JOIN xj_users u"
            + " ON o.buyer_id = u.id WHERE o.seller_id = 2 ORDER BY o.id")) {
      List<String> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(rs.getString("step") + " rows=" + rs.getString("rows") + " trips=" + rs.getString("round_trips"));
      }
      long expected = Oracle.answer(oracle, "SELECT o.id FROM xj_orders o JOIN xj_users u ON o.buyer_id = u.id"
          + " WHERE o.seller_id = 2", false).size() - 1;
      assertEquals(3, rows.size(), rows.toString());
      assertTrue(rows.get(0).startsWith("1 rows=" + expected + " "), rows.toString());
      // the driving step is one shard's (its key is given); the lookup one statement per owning shard
      assertEquals("1.1 rows=null trips=1", rows.get(1), rows.toString());
      assertTrue(rows.get(2).startsWith("1.2 rows=null trips="), rows.toString());
    }
  }

  @Test
  void petClinicFindPetWithEagerVisits_joinsByTheLookupAndThePetKey() throws SQLException {
    String find = "select p1_0.id,p1_0.name,p1_0.owner_id,t1_0.id,t1_0.name,v1_0.pet_id,v1_0.id,v1_0.visit_date,"
        + "v1_0.description from xj_pets p1_0 left join xj_types t1_0 on t1_0.id=p1_0.type_id left join xj_visits v1_0"
        + " on p1_0.id=v1_0.pet_id where p1_0.id=?";
    for (int pet = 1; pet <= 4; pet++) {
      same(find, false, pet);
    }
    try (Connection c = TestCluster.connect()) {
      assertEquals(List.of(Oracle.answer(c, find, false, 99).get(0)), Oracle.answer(c, find, false, 99), "an unknown pet: no row");
    }
  }

  @Test
  void whatTheLookupJoinCannotAnswer_isGivenToOneServer() throws SQLException {
    // an ORDER BY over both sides: each table's rows given to one server, which joins and sorts them
    same("SELECT o.id, u.name FROM xj_orders o JOIN xj_users u ON o.buyer_id = u.id WHERE o.seller_id = 1"
        + " ORDER BY u.id + o.id, o.id", true);
    // a non-equality join
    same("SELECT o.id, u.id FROM xj_orders o JOIN xj_users u ON o.buyer_id < u.id WHERE u.id IN (1, 2)", false);
  }

  @Test
  void whatNoCrossShardStepCanAnswer_isRefusedByName() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException locking = assertThrows(SQLException.class, () -> s.executeQuery(
          "SELECT o.id, u.name FROM xj_orders o JOIN xj_users u ON o.buyer_id = u.id WHERE o.seller_id = 1 FOR UPDATE"));
      assertTrue(locking.getMessage().contains("SHX1206"), locking.getMessage());
      assertEquals("0AS00", locking.getSQLState());
      SQLException starred = assertThrows(SQLException.class, () -> s.executeQuery(
          "SELECT * FROM xj_orders o JOIN xj_users u ON o.buyer_id = u.id GROUP BY u.country"));
      assertTrue(starred.getMessage().contains("SHX1206") && starred.getMessage().contains("SELECT *"), starred.getMessage());
      try (ResultSet rs = s.executeQuery("SELECT 1")) {
        assertTrue(rs.next(), "the connection still works after a refusal");
      }
    }
  }
}
