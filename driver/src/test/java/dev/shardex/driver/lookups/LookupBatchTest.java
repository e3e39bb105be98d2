package dev.shardex.driver.lookups;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.shardex.driver.TestCluster;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * JDBC batches writing tables with lookup indexes (Hibernate's {@code hibernate.jdbc.batch_size}):
 * an INSERT batch claims all its entries in one directory statement and keeps every lookup; a
 * duplicate unique value fails its entry with 1062 and the counts one server's batch reports
 * (compared with a plain table on one shard server, through Connector/J alone); INSERT IGNORE skips
 * the row; an orphan entry is taken over; UPDATE and DELETE batches run entry by entry and keep
 * the entries too.
 */
class LookupBatchTest {
  private static final String PETS = "(id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL, name VARCHAR(20), KEY (owner_id))";
  /** Owners placed on four different shards: OWNERS[s] lives on shard s. */
  private static final long[] OWNERS = new long[TestCluster.SHARDS];

  @BeforeAll
  static synchronized void placeOwners() throws SQLException {
    TestCluster.run("CREATE TABLE IF NOT EXISTS lb_owners (owner_id BIGINT PRIMARY KEY) COMMENT='shardex:sharded key=owner_id'");
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      for (long owner = 1_000; owner < 1_100 && !allPlaced(); owner++) {
        s.executeUpdate("INSERT IGNORE INTO lb_owners VALUES (" + owner + ")");
        int shard = shardOf(owner);
        if (OWNERS[shard] == 0) {
          OWNERS[shard] = owner;
        }
      }
    }
  }

  /** An owner the directory placed on {@code shard}. */
  static long owner(int shard) throws SQLException {
    if (!allPlaced()) {
      placeOwners();
    }
    return OWNERS[shard];
  }

  private static boolean allPlaced() {
    for (long o : OWNERS) {
      if (o == 0) {
        return false;
      }
    }
    return true;
  }

  private static int shardOf(long owner) throws SQLException {
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      if (TestCluster.countOnShard(shard, "lb_owners", "owner_id = " + owner) > 0) {
        return shard;
      }
    }
    throw new AssertionError("owner " + owner + " is on no shard");
  }

  @Test
  void insertBatch_keepsEveryEntryWithOneClaimStatementPerHundredRows() throws Exception {
    TestCluster.run("CREATE TABLE lb_pets " + PETS + " COMMENT='shardex:sharded key=owner_id lookup=id unique'");
    int n = 250;
    Map<String, String> expected = new TreeMap<>();
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("INSERT INTO lb_pets (id, owner_id, name) VALUES (?, ?, 'x')")) {
      long claimsBefore = directoryStatus("Com_insert");
      for (int id = 1; id <= n; id++) {
        ps.setLong(1, id);
        ps.setLong(2, OWNERS[id % 4]);
        ps.addBatch();
        expected.put(Integer.toString(id), Long.toString(OWNERS[id % 4]));
      }
      assertArrayEquals(filled(n, 1), ps.executeLargeBatch());
      assertEquals(3, directoryStatus("Com_insert") - claimsBefore, "three INSERT IGNOREs claim the batch's 250 entries");
      for (int id = 1; id <= n; id += 37) {
        assertEquals(Long.toString(OWNERS[id % 4]), LookupRoutingTest.one(c, "SELECT owner_id FROM lb_pets WHERE id = ?", id));
      }
    }
    assertEquals(expected, entries("lb_pets", "id"));
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      String owner = Long.toString(OWNERS[shard]);
      long mine = expected.values().stream().filter(owner::equals).count();
      assertEquals(mine, TestCluster.countOnShard(shard, "lb_pets", "owner_id = " + OWNERS[shard]), "shard " + shard);
      assertEquals(mine, TestCluster.countOnShard(shard, "lb_pets", null), "only its own owner's rows on shard " + shard);
    }
  }

  @Test
  void duplicateAcrossShards_failsItsEntryAsOneServersBatchDoes() throws Exception {
    TestCluster.run("CREATE TABLE lb_dup " + PETS + " COMMENT='shardex:sharded key=owner_id lookup=id unique'",
        "INSERT INTO lb_dup VALUES (7, " + OWNERS[0] + ", 'held')");
    long[][] batch = {{100, OWNERS[1]}, {7, OWNERS[2]}, {101, OWNERS[3]}, {100, OWNERS[2]}, {102, OWNERS[0]}};
    BatchUpdateException sharded;
    try (Connection c = TestCluster.connect()) {
      sharded = assertThrows(BatchUpdateException.class, () -> insertBatch(c, "INSERT INTO lb_dup (id, owner_id, name)", batch));
    }
    BatchUpdateException one = assertThrows(BatchUpdateException.class,
        () -> oneServer("INSERT INTO lb_dup_one (id, owner_id, name)", batch));
    assertArrayEquals(new long[] {1, Statement.EXECUTE_FAILED, 1, Statement.EXECUTE_FAILED, 1}, one.getLargeUpdateCounts());
    assertArrayEquals(one.getLargeUpdateCounts(), sharded.getLargeUpdateCounts());
    assertEquals(one.getErrorCode(), sharded.getErrorCode());
    assertEquals(one.getSQLState(), sharded.getSQLState());
    assertEquals("Duplicate entry '7' for key 'PRIMARY'", sharded.getMessage());
    assertEquals(Map.of("7", "" + OWNERS[0], "100", "" + OWNERS[1], "101", "" + OWNERS[3], "102", "" + OWNERS[0]),
        entries("lb_dup", "id"), "no entry for the failed rows");
    assertEquals(List.of("7:" + OWNERS[0] + ":held", "100:" + OWNERS[1] + ":x", "101:" + OWNERS[3] + ":x",
        "102:" + OWNERS[0] + ":x"), rowsAcrossShards("lb_dup"));
  }

  @Test
  void insertIgnoreBatch_skipsTheDuplicateRows() throws Exception {
    TestCluster.run("CREATE TABLE lb_ign " + PETS + " COMMENT='shardex:sharded key=owner_id lookup=id unique'",
        "INSERT INTO lb_ign VALUES (7, " + OWNERS[0] + ", 'held')");
    long[][] batch = {{7, OWNERS[1]}, {8, OWNERS[2]}, {8, OWNERS[3]}, {9, OWNERS[0]}};
    long[] counts;
    try (Connection c = TestCluster.connect()) {
      counts = insertBatch(c, "INSERT IGNORE INTO lb_ign (id, owner_id, name)", batch);
    }
    assertArrayEquals(new long[] {0, 1, 0, 1}, counts);
    assertArrayEquals(oneServer("INSERT IGNORE INTO lb_ign_one (id, owner_id, name)", batch), counts);
    assertEquals(Map.of("7", "" + OWNERS[0], "8", "" + OWNERS[2], "9", "" + OWNERS[0]), entries("lb_ign", "id"));
    assertEquals(List.of("7:" + OWNERS[0] + ":held", "8:" + OWNERS[2] + ":x", "9:" + OWNERS[0] + ":x"),
        rowsAcrossShards("lb_ign"));
  }

  @Test
  void multiRowEntries_aDuplicateFailsTheWholeEntry() throws Exception {
    TestCluster.run("CREATE TABLE lb_multi " + PETS + " COMMENT='shardex:sharded key=owner_id lookup=id unique'",
        "INSERT INTO lb_multi VALUES (7, " + OWNERS[0] + ", 'held')");
    String sql = "INSERT INTO lb_multi (id, owner_id, name) VALUES (?, ?, 'x'), (?, ?, 'x')";
    long[][] batch = {{1, OWNERS[1], 2, OWNERS[2]}, {3, OWNERS[3], 7, OWNERS[1]}, {3, OWNERS[0], 4, OWNERS[0]}};
    BatchUpdateException e;
    try (Connection c = TestCluster.connect(); PreparedStatement ps = c.prepareStatement(sql)) {
      for (long[] row : batch) {
        for (int i = 0; i < row.length; i++) {
          ps.setLong(i + 1, row[i]);
        }
        ps.addBatch();
      }
      e = assertThrows(BatchUpdateException.class, ps::executeLargeBatch);
    }
    // the failed entry wrote neither row, so its 3 is free for the entry after it, as on one server
    assertArrayEquals(new long[] {2, Statement.EXECUTE_FAILED, 2}, e.getLargeUpdateCounts());
    assertEquals(1062, e.getErrorCode());
    assertEquals(Map.of("1", "" + OWNERS[1], "2", "" + OWNERS[2], "3", "" + OWNERS[0], "4", "" + OWNERS[0],
        "7", "" + OWNERS[0]), entries("lb_multi", "id"));
    assertEquals(5, rowsAcrossShards("lb_multi").size());
  }

  @Test
  void sequenceFilledIds_getTheirEntries() throws Exception {
    TestCluster.run("CREATE TABLE lb_seq (id BIGINT AUTO_INCREMENT PRIMARY KEY, owner_id BIGINT NOT NULL, name VARCHAR(20),"
        + " KEY (owner_id)) COMMENT='shardex:sharded key=owner_id lookup=id unique'");
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("INSERT INTO lb_seq (owner_id, name) VALUES (?, ?)")) {
      for (int i = 0; i < 8; i++) {
        ps.setLong(1, OWNERS[i % 4]);
        ps.setString(2, "n" + i);
        ps.addBatch();
      }
      assertArrayEquals(filled(8, 1), ps.executeLargeBatch());
    }
    Map<String, String> expected = new TreeMap<>();
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      for (String id : TestCluster.onShard(shard, "SELECT id FROM lb_seq")) {
        expected.put(id, Long.toString(OWNERS[shard]));
      }
    }
    assertEquals(8, expected.size());
    assertEquals(expected, entries("lb_seq", "id"));
  }

  @Test
  void anEntryItsShardRefuses_failsAloneAsOnOneServer() throws Exception {
    for (String table : List.of("lb_coded", "lb_coded_plain")) {
      // code is unique per shard only (no lookup on it): shard 1 refuses the second entry itself
      TestCluster.run("CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL, code VARCHAR(10),"
          + " UNIQUE KEY uk_code (code)) COMMENT='shardex:sharded key=owner_id"
          + (table.endsWith("plain") ? "'" : " lookup=id unique'"),
          "INSERT INTO " + table + " VALUES (100, " + OWNERS[1] + ", 'taken')");
      BatchUpdateException e;
      try (Connection c = TestCluster.connect();
          PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?)")) {
        Object[][] rows = {{1, OWNERS[0], "a"}, {2, OWNERS[1], "taken"}, {3, OWNERS[1], "b"}, {4, OWNERS[2], "c"}};
        for (Object[] row : rows) {
          for (int i = 0; i < row.length; i++) {
            ps.setObject(i + 1, row[i]);
          }
          ps.addBatch();
        }
        e = assertThrows(BatchUpdateException.class, ps::executeLargeBatch);
        assertArrayEquals(new long[] {1, Statement.EXECUTE_FAILED, 1, 1}, e.getLargeUpdateCounts(), table);
        assertEquals(1062, e.getErrorCode());
        for (long id : new long[] {1, 3, 4}) {
          assertEquals("1", LookupRoutingTest.one(c, "SELECT COUNT(*) FROM " + table + " WHERE id = ?", id), table + " " + id);
        }
      }
      long rows = 0;
      for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
        rows += TestCluster.countOnShard(shard, table, null);
      }
      assertEquals(4, rows, table + ": the three that ran, and the row there before");
    }
  }

  @Test
  void orphanEntry_isTakenOverByTheBatch() throws Exception {
    TestCluster.run("CREATE TABLE lb_orphan " + PETS + " COMMENT='shardex:sharded key=owner_id lookup=id unique'");
    try (Connection c = TestCluster.connect()) {
      var id = TestCluster.cluster(c).directory().lookups().of("lb_orphan").get(0);
      TestCluster.cluster(c).directory().lookups().store().claim(id, "900", "" + OWNERS[1]); // a crash's leftover: no row
      assertArrayEquals(new long[] {1, 1}, insertBatch(c, "INSERT INTO lb_orphan (id, owner_id, name)",
          new long[][] {{900, OWNERS[2]}, {901, OWNERS[2]}}));
      assertEquals("" + OWNERS[2], LookupRoutingTest.one(c, "SELECT owner_id FROM lb_orphan WHERE id = 900"));
    }
    assertEquals(Map.of("900", "" + OWNERS[2], "901", "" + OWNERS[2]), entries("lb_orphan", "id"));
  }

  @Test
  void updateAndDeleteBatches_runEntryByEntryAndKeepTheEntries() throws Exception {
    TestCluster.run("CREATE TABLE lb_ud (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL, email VARCHAR(50), KEY (owner_id))"
        + " COMMENT='shardex:sharded key=owner_id lookup=id unique lookup=email unique'",
        "INSERT INTO lb_ud VALUES (1, " + OWNERS[0] + ", 'a@x'), (2, " + OWNERS[1] + ", 'b@x'), (3, " + OWNERS[2] + ", 'c@x')");
    try (Connection c = TestCluster.connect()) {
      try (PreparedStatement ps = c.prepareStatement("UPDATE lb_ud SET email = ? WHERE id = ?")) {
        ps.setString(1, "a2@x");
        ps.setLong(2, 1);
        ps.addBatch();
        ps.setString(1, "b2@x");
        ps.setLong(2, 2);
        ps.addBatch();
        assertArrayEquals(new int[] {1, 1}, ps.executeBatch());
      }
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM lb_ud WHERE id = ?")) {
        ps.setLong(1, 2);
        ps.addBatch();
        ps.setLong(1, 3);
        ps.addBatch();
        assertArrayEquals(new int[] {1, 1}, ps.executeBatch());
      }
      assertEquals("a2@x", LookupRoutingTest.one(c, "SELECT email FROM lb_ud WHERE id = 1"));
    }
    assertEquals(Map.of("1", "" + OWNERS[0]), entries("lb_ud", "id"));
    assertEquals(Map.of("a2@x", "" + OWNERS[0]), entries("lb_ud", "email"));
  }

  @Test
  void plainStatementBatch_runsEntryByEntry() throws Exception {
    TestCluster.run("CREATE TABLE lb_plain " + PETS + " COMMENT='shardex:sharded key=owner_id lookup=id unique'");
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.addBatch("INSERT INTO lb_plain VALUES (1, " + OWNERS[0] + ", 'x')");
      s.addBatch("INSERT INTO lb_plain VALUES (2, " + OWNERS[1] + ", 'y')");
      s.addBatch("UPDATE lb_plain SET name = 'z' WHERE id = 1");
      assertArrayEquals(new int[] {1, 1, 1}, s.executeBatch());
      assertEquals("z", LookupRoutingTest.one(c, "SELECT name FROM lb_plain WHERE id = 1"));
    }
    assertEquals(Map.of("1", "" + OWNERS[0], "2", "" + OWNERS[1]), entries("lb_plain", "id"));
  }

  @Test
  void insertBatchInATransaction_commitsWithIt() throws Exception {
    TestCluster.run("CREATE TABLE lb_tx " + PETS + " COMMENT='shardex:sharded key=owner_id lookup=id unique'");
    try (Connection c = TestCluster.connect("shardex.transactions=atomic")) {
      c.setAutoCommit(false);
      insertBatch(c, "INSERT INTO lb_tx (id, owner_id, name)", new long[][] {{1, OWNERS[0]}, {2, OWNERS[0]}});
      assertEquals(0, TestCluster.countOnShard(0, "lb_tx", null), "not committed yet");
      c.commit();
      assertEquals("2", LookupRoutingTest.one(c, "SELECT COUNT(*) FROM lb_tx WHERE id IN (1, 2)"));
    }
    assertEquals(2, TestCluster.countOnShard(0, "lb_tx", null));
    assertEquals(Map.of("1", "" + OWNERS[0], "2", "" + OWNERS[0]), entries("lb_tx", "id"));
  }

  // ---- helpers ------------------------------------------------------------------------------------

  private static long[] insertBatch(Connection c, String insert, long[][] rows) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(insert + " VALUES (?, ?, 'x')")) {
      for (long[] row : rows) {
        ps.setLong(1, row[0]);
        ps.setLong(2, row[1]);
        ps.addBatch();
      }
      return ps.executeLargeBatch();
    }
  }

  /**
   * The same batch on one shard server through Connector/J alone, into a plain table holding the
   * same first row (id 7): its counts, or its BatchUpdateException, which the sharded batch must match.
   */
  private static long[] oneServer(String insert, long[][] rows) throws SQLException {
    String table = insert.replaceAll(".*INTO (\\w+).*", "$1");
    try (Connection c = TestCluster.sandbox().connectShard(0); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " " + PETS);
      s.execute("INSERT INTO " + table + " VALUES (7, 0, 'held')");
      return insertBatch(c, insert, rows);
    }
  }

  private static long[] filled(int n, long v) {
    long[] a = new long[n];
    java.util.Arrays.fill(a, v);
    return a;
  }

  /** The lookup's entries (value -> key), read in the directory's tables. */
  static Map<String, String> entries(String table, String column) throws SQLException {
    Map<String, String> out = new TreeMap<>();
    try (Connection d = TestCluster.sandbox().connectDirectory(); PreparedStatement ps = d.prepareStatement(
        "SELECT u.v, u.k FROM lookup_unique u JOIN lookup_indexes i ON i.id = u.index_id"
            + " WHERE i.table_name = ? AND i.column_name = ?")) {
      ps.setString(1, table);
      ps.setString(2, column);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getString(1), rs.getString(2));
        }
      }
    }
    return out;
  }

  /** Every row of the table on every shard, as id:owner:name, in id order. */
  private static List<String> rowsAcrossShards(String table) throws SQLException {
    Map<Long, String> rows = new TreeMap<>();
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      for (String row : TestCluster.onShard(shard, "SELECT CONCAT(id, ':', owner_id, ':', name) FROM " + table)) {
        rows.put(Long.parseLong(row.substring(0, row.indexOf(':'))), row);
      }
    }
    return new ArrayList<>(rows.values());
  }

  private static long directoryStatus(String variable) throws SQLException {
    try (Connection d = TestCluster.sandbox().connectDirectory(); Statement s = d.createStatement();
        ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE '" + variable + "'")) {
      rs.next();
      return rs.getLong(2);
    }
  }
}
