package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.Directory;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.TableKind;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * The SQL and JDBC calls frameworks make (Spring's schema init, Hibernate, jOOQ, Flyway, plain
 * JDBC), through the real driver on the sandbox: declarations that survive comment stripping,
 * row-value keys, prepared SET, LIMIT ? OFFSET ?, split-INSERT keys, LOBs, timeouts, metadata.
 */
class FrameworkSqlTest {
  private static int ownerOf(Connection c, long key) throws SQLException {
    return TestCluster.cluster(c).directory().store().lookup(KeySpace.DEFAULT, Long.toString(key)).shardId();
  }

  private static List<String> warnings(Statement s) throws SQLException {
    List<String> out = new ArrayList<>();
    for (SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
      out.add(w.getMessage());
    }
    return out;
  }

  private static List<String> column(ResultSet rs) throws SQLException {
    List<String> out = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  @Test
  void theTablesOwnCommentDeclaresItAndStaysWithTheTableOnEveryShard() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      Directory dir = TestCluster.cluster(c).directory();
      // what spring.sql.init sends once it has stripped /* */ comments from schema.sql
      s.execute("CREATE TABLE fw_posts (post_id BIGINT NOT NULL, user_id BIGINT NOT NULL COMMENT 'author', "
          + "title VARCHAR(40), PRIMARY KEY (post_id, user_id)) ENGINE=InnoDB COMMENT='shardex:sharded key=user_id'");
      s.execute("CREATE TABLE fw_countries (code CHAR(2) PRIMARY KEY) COMMENT 'shardex:global'");
      s.execute("CREATE TABLE fw_jobs (id INT PRIMARY KEY) COMMENT = 'shardex:single shard=2'");
      assertEquals(TableKind.SHARDED, dir.table("fw_posts").kind());
      assertEquals("user_id", dir.table("fw_posts").keyColumn());
      assertEquals(TableKind.GLOBAL, dir.table("fw_countries").kind());
      assertEquals(2, dir.table("fw_jobs").homeShard());
      for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
        try (Connection direct = TestCluster.sandbox().connectShard(shard); Statement d = direct.createStatement();
            ResultSet rs = d.executeQuery("SHOW CREATE TABLE fw_posts")) {
          assertTrue(rs.next());
          assertTrue(rs.getString(2).contains("COMMENT='shardex:sharded key=user_id'"), rs.getString(2));
        }
        assertEquals(shard == 2 ? List.of("fw_jobs") : List.of(), DeclarationTest.tablesOn(shard, "fw_jobs"));
      }
    }
  }

  @Test
  void aCreateTableWithNoDeclarationWarnsThatItBecameSingleOnTheHomeShard() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE fw_undeclared (id INT PRIMARY KEY)");
      List<String> w = warnings(s);
      assertTrue(w.get(0).startsWith("Shardex: table fw_undeclared has no declaration, so it was created SINGLE on the home "
          + "shard 0"), w.toString());
      assertTrue(w.get(0).contains("COMMENT='shardex:sharded key=COLUMN'"), w.get(0));
      s.execute("/* shardex:global */ CREATE TABLE fw_declared (id INT PRIMARY KEY)");
      assertTrue(warnings(s).stream().noneMatch(m -> m.contains("no declaration")), warnings(s).toString());
    }
  }

  @Test
  void aRowValueCarryingTheKeyRoutesByTheKey() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS fw_comp (post_id BIGINT NOT NULL, "
        + "user_id BIGINT NOT NULL, title VARCHAR(20), PRIMARY KEY (post_id, user_id))");
    try (Connection c = TestCluster.connect()) {
      try (PreparedStatement ins = c.prepareStatement("INSERT INTO fw_comp (post_id, user_id, title) VALUES (?, ?, ?)")) {
        for (long u = 71_001; u <= 71_004; u++) {
          ins.setLong(1, 1);
          ins.setLong(2, u);
          ins.setString(3, "p" + u);
          ins.executeUpdate();
        }
      }
      // Hibernate's load of an entity with a composite id
      try (PreparedStatement ps = c.prepareStatement(
          "select p1_0.post_id,p1_0.user_id,p1_0.title from fw_comp p1_0 where (p1_0.post_id,p1_0.user_id) in ((?,?))")) {
        ps.setLong(1, 1);
        ps.setLong(2, 71_003);
        try (ResultSet rs = ps.executeQuery()) {
          assertTrue(rs.next());
          assertEquals("p71003", rs.getString(3));
        }
      }
      try (PreparedStatement ps = c.prepareStatement("update fw_comp set title=? where (post_id, user_id) = (?, ?)")) {
        ps.setString(1, "renamed");
        ps.setLong(2, 1);
        ps.setLong(3, 71_002);
        assertEquals(1, ps.executeUpdate());
      }
      int owner = ownerOf(c, 71_002);
      assertEquals(List.of("renamed"), TestCluster.onShard(owner, "SELECT title FROM fw_comp WHERE user_id = 71002"));
      try (Statement s = c.createStatement()) {
        assertEquals(List.of(Integer.toString(owner)), column(s.executeQuery(
            "EXPLAIN ROUTE SELECT * FROM fw_comp WHERE (post_id, user_id) IN ((1, 71002))")));
      }
    }
  }

  @Test
  void limitAndOffsetParametersSurviveOnOneShardAndAcrossShards() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS fw_page (post_id BIGINT NOT NULL, "
        + "user_id BIGINT NOT NULL, PRIMARY KEY (post_id, user_id))");
    try (Connection c = TestCluster.connect()) {
      try (PreparedStatement ins = c.prepareStatement("INSERT INTO fw_page (post_id, user_id) VALUES (?, ?)")) {
        for (long u = 72_001; u <= 72_004; u++) {
          for (long p = 1; p <= 5; p++) {
            ins.setLong(1, u * 10 + p);
            ins.setLong(2, u);
            ins.addBatch();
          }
        }
        ins.executeBatch();
      }
      // jOOQ, MYSQL dialect
      try (PreparedStatement ps = c.prepareStatement(
          "select post_id from fw_page where user_id = ? order by post_id limit ? offset ?")) {
        ps.setLong(1, 72_002);
        ps.setInt(2, 2);
        ps.setInt(3, 1);
        assertEquals(List.of("720022", "720023"), column(ps.executeQuery()));
      }
      try (PreparedStatement ps = c.prepareStatement(
          "select post_id from fw_page where user_id in (?, ?, ?, ?) order by post_id desc limit ? offset ?")) {
        for (int i = 0; i < 4; i++) {
          ps.setLong(i + 1, 72_001 + i);
        }
        ps.setInt(5, 3);
        ps.setInt(6, 4);
        assertEquals(List.of("720041", "720035", "720034"), column(ps.executeQuery()),
            "rows 5..7 of all four users, newest first, whichever shards they live on");
      }
    }
  }

  @Test
  void aPreparedSetBindsItsParameters() throws Exception {
    try (Connection c = TestCluster.connect()) {
      // Flyway's MySQL connection set-up
      try (PreparedStatement ps = c.prepareStatement("SET foreign_key_checks=?, sql_safe_updates=?")) {
        ps.setObject(1, 0);
        ps.setObject(2, false);
        ps.execute();
      }
      try (PreparedStatement ps = c.prepareStatement("SET @fw_note = ?")) {
        ps.setString(1, "it's a \\ test");
        ps.execute();
      }
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
          "SELECT @@foreign_key_checks, @@sql_safe_updates, @fw_note")) {
        assertTrue(rs.next());
        assertEquals(0, rs.getInt(1));
        assertEquals(0, rs.getInt(2));
        assertEquals("it's a \\ test", rs.getString(3));
      }
      try (PreparedStatement ps = c.prepareStatement("SET foreign_key_checks=?")) {
        SQLException e = assertThrows(SQLException.class, ps::execute);
        assertEquals("07001", e.getSQLState());
      }
    }
  }

  @Test
  void aMultiRowInsertAcrossShardsReturnsEveryKeyInRowOrder() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id sequence=none */ CREATE TABLE IF NOT EXISTS fw_ai_own ("
        + "id BIGINT AUTO_INCREMENT PRIMARY KEY, user_id BIGINT NOT NULL)");
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("INSERT INTO fw_ai_own (user_id) VALUES (?), (?), (?), (?), (?), (?), (?), (?)",
            Statement.RETURN_GENERATED_KEYS)) {
      long[] users = new long[8];
      for (int i = 0; i < 8; i++) {
        users[i] = 73_001 + i;
        ps.setLong(i + 1, users[i]);
      }
      assertEquals(8, ps.executeUpdate());
      List<String> keys = column(ps.getGeneratedKeys());
      assertEquals(8, keys.size(), "one key per row: " + keys);
      Set<Integer> shards = new HashSet<>();
      for (int i = 0; i < 8; i++) {
        int owner = ownerOf(c, users[i]);
        shards.add(owner);
        assertEquals(List.of(keys.get(i)), TestCluster.onShard(owner, "SELECT id FROM fw_ai_own WHERE user_id = " + users[i]),
            "key of row " + i);
      }
      assertTrue(shards.size() > 1, "the rows went to several shards: " + shards);
      try (Statement s = c.createStatement()) {
        assertEquals(3, s.executeUpdate("INSERT INTO fw_ai_own (user_id) VALUES (73003), (73001), (73002)",
            Statement.RETURN_GENERATED_KEYS));
        List<String> plain = column(s.getGeneratedKeys());
        assertEquals(3, plain.size(), "a plain statement too: " + plain);
        for (int i = 0; i < 3; i++) {
          long user = new long[] {73_003, 73_001, 73_002}[i];
          assertTrue(TestCluster.onShard(ownerOf(c, user), "SELECT id FROM fw_ai_own WHERE user_id = " + user)
              .contains(plain.get(i)), "key of row " + i);
        }
      }
    }
  }

  @Test
  void autoIncrementOfAShardedTableGivesIdsUniqueAcrossShards() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS fw_ai (id BIGINT NOT NULL AUTO_INCREMENT, "
        + "user_id BIGINT NOT NULL, PRIMARY KEY (id))");
    List<Long> ids = new ArrayList<>();
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("INSERT INTO fw_ai (user_id) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
      for (long u = 74_001; u <= 74_012; u++) {
        ps.setLong(1, u);
        assertEquals(1, ps.executeUpdate());
        try (ResultSet rs = ps.getGeneratedKeys()) {
          assertTrue(rs.next());
          ids.add(rs.getLong(1));
        }
      }
      Set<Integer> shards = new HashSet<>();
      for (int i = 0; i < ids.size(); i++) {
        int owner = ownerOf(c, 74_001 + i);
        shards.add(owner);
        assertEquals(List.of(Long.toString(ids.get(i))), TestCluster.onShard(owner, "SELECT id FROM fw_ai WHERE user_id = "
            + (74_001 + i)));
      }
      assertTrue(shards.size() > 1, "rows on several shards: " + shards);
      // MyBatis-style: the id column named, given NULL (bound or literal), as AUTO_INCREMENT takes it
      try (PreparedStatement named = c.prepareStatement("INSERT INTO fw_ai (id, user_id) VALUES (?, ?), (?, ?)",
          Statement.RETURN_GENERATED_KEYS)) {
        named.setNull(1, java.sql.Types.BIGINT);
        named.setLong(2, 74_001);
        named.setNull(3, java.sql.Types.BIGINT);
        named.setLong(4, 74_002);
        assertEquals(2, named.executeUpdate());
        ids.addAll(column(named.getGeneratedKeys()).stream().map(Long::valueOf).toList());
      }
      try (Statement plain = c.createStatement()) {
        plain.executeUpdate("INSERT INTO fw_ai (id, user_id) VALUES (NULL, 74003)", Statement.RETURN_GENERATED_KEYS);
        ids.addAll(column(plain.getGeneratedKeys()).stream().map(Long::valueOf).toList());
      }
      assertEquals(15, ids.size(), "a key for every row: " + ids);
      List<Long> stored = new ArrayList<>();
      for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
        TestCluster.onShard(shard, "SELECT id FROM fw_ai").forEach(id -> stored.add(Long.valueOf(id)));
      }
      assertEquals(new HashSet<>(ids), new HashSet<>(stored), "the returned keys are the stored ids");
    }
    assertEquals(ids.size(), new HashSet<>(ids).size(), "ids unique across shards: " + ids);
  }

  @Test
  void lobsAreCreatedLocallyAndBoundAsValues() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS fw_lobs (user_id BIGINT PRIMARY KEY, "
        + "body TEXT, note TEXT, data BLOB)");
    try (Connection c = TestCluster.connect()) {
      Clob clob = c.createClob();
      clob.setString(1, "hello");
      clob.setString(6, " world");
      NClob nclob = c.createNClob();
      nclob.setString(1, "héllo");
      Blob blob = c.createBlob();
      blob.setBytes(1, new byte[] {1, 2, 3});
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO fw_lobs (user_id, body, note, data) VALUES (?, ?, ?, ?)")) {
        ps.setLong(1, 75_001);
        ps.setClob(2, clob);
        ps.setNClob(3, nclob);
        ps.setBlob(4, blob);
        assertEquals(1, ps.executeUpdate());
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT body, note, data FROM fw_lobs WHERE user_id = ?")) {
        ps.setLong(1, 75_001);
        try (ResultSet rs = ps.executeQuery()) {
          assertTrue(rs.next());
          assertEquals("hello world", rs.getString(1));
          assertEquals("héllo", rs.getString(2));
          assertArrayEquals(new byte[] {1, 2, 3}, rs.getBytes(3));
        }
      }
      clob.free();
      assertThrows(SQLException.class, clob::length);
    }
  }

  @Test
  void theNetworkTimeoutAppliesToShardConnections() throws Exception {
    ExecutorService executor = Executors.newSingleThreadExecutor();
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      assertEquals(0, c.getNetworkTimeout());
      c.setNetworkTimeout(executor, 500);
      assertEquals(500, c.getNetworkTimeout());
      assertThrows(SQLException.class, () -> s.executeQuery("SELECT SLEEP(3)").next(),
          "a shard that answers later than the network timeout fails the statement");
    } finally {
      executor.shutdownNow();
    }
  }

  @Test
  void theMetadataNamesTheShardexUrlAndConnection() throws Exception {
    try (Connection c = TestCluster.connect()) {
      var meta = c.getMetaData();
      assertEquals(TestCluster.URL, meta.getURL());
      assertSame(c, meta.getConnection());
      assertNotNull(meta.getDatabaseProductName());
    }
  }
}
