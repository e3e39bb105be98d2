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
 * INTERSECT and EXCEPT (ALL and DISTINCT) whose branches need different shards: each branch runs
 * as a statement of its own, and the rows are paired on one shard as typed JSON_TABLEs, compared
 * with one plain MariaDB server holding the same rows (labels, types, rows; in order where the ORDER
 * BY is total). The traps: a value of one branch on one shard and of the other on another, the
 * same value several times on several shards (ALL keeps multiplicities), NULLs (equal to each other
 * in set operations), case, accent and trailing-space variants under utf8mb4_general_ci ('Ann',
 * 'ann', 'ANN ' are one value; each first-branch group is spelt one way, so the spelling kept is
 * fixed) next to a utf8mb4_bin column where they are not, empty branches, and MariaDB's precedence
 * (INTERSECT binds tighter than UNION and EXCEPT).
 */
class SetOperationTest {
  static final List<String> DDL = List.of(
      "CREATE TABLE xs_a (id BIGINT PRIMARY KEY, k BIGINT NOT NULL, name VARCHAR(32) COLLATE utf8mb4_general_ci NULL,"
          + " code VARCHAR(32) COLLATE utf8mb4_bin NULL, n INT NULL) COMMENT='shardex:sharded key=k'",
      "CREATE TABLE xs_b (id BIGINT PRIMARY KEY, k BIGINT NOT NULL, name VARCHAR(32) COLLATE utf8mb4_general_ci NULL,"
          + " code VARCHAR(32) COLLATE utf8mb4_bin NULL, n INT NULL) COMMENT='shardex:sharded key=k'",
      "CREATE TABLE xs_g (name VARCHAR(32) COLLATE utf8mb4_general_ci NULL, n INT NULL) COMMENT='shardex:global'");
  /** The first branch's spellings (one per group under general_ci); the second's differ in case, accents or a trailing space. */
  static final String[] A_NAMES = {"Ann", "Bob", "Émile", "zoë", null, "Carl", "Dana"};
  static final String[] B_NAMES = {"ann", "BOB ", "emile", "Zoe", null, "Eve", "ANN"};

  @RegisterExtension static final Oracle.Loader LOADER = new Oracle.Loader();
  static Connection oracle;

  @BeforeAll
  static void load() throws SQLException {
    List<String> rows = new ArrayList<>();
    rows.add(insert("xs_a", A_NAMES, 60, 3));
    rows.add(insert("xs_b", B_NAMES, 45, 5));
    rows.add("INSERT INTO xs_g VALUES ('ANN', 1), ('Eve', 2), ('Frank', NULL), (NULL, NULL), ('carl', 3)");
    oracle = LOADER.load(List.of("xs_a", "xs_b", "xs_g"), DDL, rows);
  }

  /** {@code count} rows spread over keys 1..16 (so over every shard), each name and n repeating across keys. */
  private static String insert(String table, String[] names, int count, int mod) {
    StringBuilder s = new StringBuilder("INSERT INTO " + table + " VALUES ");
    for (int id = 1; id <= count; id++) {
      String name = names[id % names.length];
      String n = id % 7 == 0 ? "NULL" : Integer.toString(id % mod);
      String value = name == null ? "NULL" : "'" + name + "'";
      s.append(id == 1 ? "" : ", ").append("(").append(id).append(", ").append(id * 5 % 16 + 1).append(", ")
          .append(value).append(", ").append(value).append(", ").append(n).append(")");
    }
    return s.toString();
  }

  static void same(String sql, boolean ordered, Object... args) throws SQLException {
    Oracle.same(oracle, sql, ordered, args);
  }

  @Test
  void intersect_pairsRowsAcrossShards_distinctByDefault() throws SQLException {
    same("SELECT name FROM xs_a INTERSECT SELECT name FROM xs_b", false);
    same("SELECT name FROM xs_a INTERSECT DISTINCT SELECT name FROM xs_b", false);
    same("SELECT name, n FROM xs_a INTERSECT SELECT name, n FROM xs_b", false);
    same("SELECT n FROM xs_a WHERE k IN (?, ?) INTERSECT SELECT n FROM xs_b WHERE k > ?", false, 2, 7, 9);
    assertEquals(List.of("1 Union", "1.1 Route", "1.2 Route", "1.3 Route"),
        UnionTest.tree("SELECT name FROM xs_a INTERSECT SELECT name FROM xs_b"));
  }

  @Test
  void intersectAll_keepsTheLesserCount_exceptAll_theDifference() throws SQLException {
    same("SELECT name FROM xs_a INTERSECT ALL SELECT name FROM xs_b", false);
    same("SELECT name, n FROM xs_a INTERSECT ALL SELECT name, n FROM xs_b", false);
    same("SELECT name FROM xs_a EXCEPT ALL SELECT name FROM xs_b", false);
    same("SELECT code, n FROM xs_b EXCEPT ALL SELECT code, n FROM xs_a", false);
    same("SELECT n FROM xs_a EXCEPT ALL SELECT n FROM xs_b WHERE k < ?", false, 6);
  }

  @Test
  void except_removesEveryRowTheOtherBranchHas() throws SQLException {
    same("SELECT name FROM xs_a EXCEPT SELECT name FROM xs_b", false);
    same("SELECT name FROM xs_a EXCEPT DISTINCT SELECT name FROM xs_g", false);
    same("SELECT code, n FROM xs_b EXCEPT SELECT code, n FROM xs_a", false);
  }

  @Test
  void nullsAreEqualInSetOperations() throws SQLException {
    same("SELECT name FROM xs_a WHERE name IS NULL INTERSECT SELECT name FROM xs_b", false);
    same("SELECT name, n FROM xs_g EXCEPT SELECT name, n FROM xs_a", false);
    same("SELECT n FROM xs_a WHERE n IS NULL INTERSECT ALL SELECT n FROM xs_b WHERE n IS NULL OR n = 1", false);
  }

  @Test
  void theColumnsCollationDecides_caseAndAccentsUnderGeneralCi_exactBytesUnderBin() throws SQLException {
    // 'Ann'/'ann'/'ANN', 'Bob'/'BOB ', 'Émile'/'emile', 'zoë'/'Zoe' pair under utf8mb4_general_ci, not under utf8mb4_bin
    same("SELECT name FROM xs_a INTERSECT SELECT name FROM xs_b ORDER BY name", true);
    same("SELECT code FROM xs_a INTERSECT SELECT code FROM xs_b", false);
    same("SELECT code FROM xs_a EXCEPT SELECT code FROM xs_b", false);
    same("SELECT name FROM xs_g INTERSECT SELECT name FROM xs_a", false);
  }

  @Test
  void orderByAndLimit_applyToTheResult() throws SQLException {
    same("SELECT id % 10 AS r FROM xs_a EXCEPT ALL SELECT id % 4 FROM xs_b ORDER BY r DESC LIMIT 4", true);
    same("SELECT n, name FROM xs_a INTERSECT ALL SELECT n, name FROM xs_b ORDER BY n, name LIMIT 3 OFFSET 1", true);
    same("(SELECT n FROM xs_a ORDER BY id DESC LIMIT 5) INTERSECT ALL SELECT n FROM xs_b ORDER BY n", true);
  }

  @Test
  void precedence_intersectBindsTighterThanUnionAndExcept() throws SQLException {
    same("SELECT name FROM xs_g UNION SELECT name FROM xs_a INTERSECT SELECT name FROM xs_b", false);
    same("SELECT name FROM xs_a EXCEPT SELECT name FROM xs_g INTERSECT SELECT name FROM xs_b", false);
    same("SELECT name FROM xs_a INTERSECT SELECT name FROM xs_b UNION ALL SELECT name FROM xs_g", false);
    same("SELECT n FROM xs_a EXCEPT ALL SELECT n FROM xs_b UNION ALL SELECT n FROM xs_g", false);
  }

  @Test
  void emptyBranches() throws SQLException {
    same("SELECT name FROM xs_a EXCEPT SELECT name FROM xs_b WHERE n < 0", false);
    same("SELECT name, n FROM xs_a EXCEPT ALL SELECT name, n FROM xs_b WHERE n < 0", false);
    try (Connection c = TestCluster.connect()) {
      for (String none : List.of("SELECT name FROM xs_a WHERE n < 0 INTERSECT SELECT name FROM xs_b",
          "SELECT name FROM xs_a INTERSECT ALL SELECT name FROM xs_b WHERE n < 0",
          "SELECT name FROM xs_a WHERE n < 0 EXCEPT SELECT name FROM xs_b")) {
        List<String> expected = Oracle.answer(oracle, none, false);
        assertEquals(1, expected.size(), "only the header: " + none);
        assertEquals(expected, Oracle.answer(c, none, false), none);
      }
    }
  }

  @Test
  void onOneShard_theStatementRunsThereAsItIs() throws SQLException {
    String one = "SELECT name FROM xs_a WHERE k = 3 INTERSECT ALL SELECT name FROM xs_b WHERE k = 3";
    try (Connection c = TestCluster.connect()) {
      assertEquals(Oracle.answer(oracle, one, false), Oracle.answer(c, one, false));
    }
    assertEquals(1, UnionTest.tree(one).size(), "one statement, no Union node: " + UnionTest.tree(one));
  }

  @Test
  void inADerivedTableOrAnInSubquery_theSetOperationIsExact_orRefusedByName() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(
          "SELECT COUNT(*) AS c FROM (SELECT name FROM xs_a INTERSECT ALL SELECT name FROM xs_b) d"));
      assertTrue(e.getMessage().startsWith("Shardex SHX1207: ") && e.getMessage().contains("column name of derived table d"
          + " is of type VARCHAR, which its rows cannot carry to one shard exactly"), e.getMessage());
    }
    same("SELECT COUNT(*) AS c FROM (SELECT n FROM xs_a INTERSECT ALL SELECT n FROM xs_b) d", false);
    same("SELECT d.n, COUNT(*) AS c FROM (SELECT n FROM xs_a EXCEPT ALL SELECT n FROM xs_b) d GROUP BY d.n", false);
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(
          "SELECT name, n FROM xs_g WHERE name IN (SELECT name FROM xs_a INTERSECT SELECT name FROM xs_b)"));
      assertTrue(e.getMessage().startsWith("Shardex SHX1206: ") && e.getMessage().contains("a SHARDED table in a subquery"
          + " is not joined across shards yet"), e.getMessage());
    }
  }

  @Test
  void aBranchPastTheCap_isRefusedByNameBeforeAnyRow() throws SQLException {
    try (Connection c = TestCluster.connect("shardex.maxMergeRows=20"); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(
          "SELECT name FROM xs_a WHERE k = 1 INTERSECT SELECT name FROM xs_b"));
      assertEquals("0AS00", e.getSQLState());
      assertTrue(e.getMessage().startsWith("Shardex SHX1207: INTERSECT 'SELECT name FROM xs_a"), e.getMessage());
      assertTrue(e.getMessage().contains("its branch 2 has more than shardex.maxMergeRows (20 rows)"), e.getMessage());
      try (ResultSet rs = s.executeQuery("SELECT name FROM xs_a WHERE k = 1 EXCEPT SELECT name FROM xs_b WHERE k = 2")) {
        assertTrue(rs.next(), "within the cap it is answered");
      }
    }
  }

  @Test
  void whatCannotBeAnsweredExactly_isRefusedByName() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException sum = assertThrows(SQLException.class, () -> s.executeQuery(
          "SELECT k, SUM(n) FROM xs_a GROUP BY k INTERSECT SELECT k, n FROM xs_b"));
      assertEquals("0AS00", sum.getSQLState());
      assertTrue(sum.getMessage().startsWith("Shardex SHX1209: an INTERSECT across shards ('SELECT k, SUM(n) FROM xs_a"),
          sum.getMessage());
      assertTrue(sum.getMessage().contains("column 2 of branch 1 (SUM(n)), whose exact type Shardex cannot tell"),
          sum.getMessage());
      SQLException nested = assertThrows(SQLException.class, () -> s.executeQuery(
          "(SELECT name FROM xs_a UNION SELECT name FROM xs_g) EXCEPT SELECT name FROM xs_b"));
      assertTrue(nested.getMessage().startsWith("Shardex SHX1209: an EXCEPT across shards"), nested.getMessage());
      assertTrue(nested.getMessage().contains("branch 1 that is itself a UNION, INTERSECT, EXCEPT, VALUES or WITH"),
          nested.getMessage());
      try (ResultSet rs = s.executeQuery("SELECT 1")) {
        assertTrue(rs.next(), "the connection still works after a refusal");
      }
    }
  }
}
