package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Every logical connection proves its credentials, also when an authenticated cluster for the same
 * directory and user is already open: each wrong-credential path is refused with SQLState 28000
 * (SHX1409) at once, and two users with different grants each keep only their own rights.
 */
class AuthenticationTest {
  private static final String READER = "auth_reader";
  private static final String READER_PASSWORD = "Reader-Secret-42";
  private static String url;
  private static String user;
  private static String password;

  @BeforeAll
  static void schema() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS auth_rows (user_id BIGINT PRIMARY KEY, v INT)",
        "REPLACE INTO auth_rows (user_id, v) VALUES (1, 1), (2, 2), (3, 3), (4, 4)");
    var sandbox = TestCluster.sandbox();
    url = "jdbc:shardex:" + sandbox.directoryUrl().substring("jdbc:".length());
    user = sandbox.user();
    password = sandbox.password();
    // a second user: full rights on the directory (it registers as a client), read-only on the shards
    List<Connection> servers = new ArrayList<>();
    servers.add(sandbox.connectDirectory());
    for (int i = 0; i < TestCluster.SHARDS; i++) {
      servers.add(sandbox.connectShard(i));
    }
    for (int i = 0; i < servers.size(); i++) {
      try (Connection c = servers.get(i); Statement s = c.createStatement()) {
        s.execute("CREATE USER IF NOT EXISTS '" + READER + "'@'%' IDENTIFIED BY '" + READER_PASSWORD + "'");
        s.execute("CREATE USER IF NOT EXISTS '" + READER + "'@'localhost' IDENTIFIED BY '" + READER_PASSWORD + "'");
        String grant = i == 0 ? "ALL PRIVILEGES ON `" + c.getCatalog() + "`.*" : "SELECT ON `" + c.getCatalog() + "`.*";
        s.execute("GRANT " + grant + " TO '" + READER + "'@'%'");
        s.execute("GRANT " + grant + " TO '" + READER + "'@'localhost'");
      }
    }
  }

  private static Connection connect(String u, String p) throws SQLException {
    return DriverManager.getConnection(url + "?shardex.instance=auth", u, p);
  }

  private static void assertDenied(Executable attempt) {
    long start = System.nanoTime();
    SQLException e = assertThrows(SQLException.class, attempt);
    long ms = (System.nanoTime() - start) / 1_000_000;
    assertEquals("28000", e.getSQLState(), e.getMessage());
    assertInstanceOf(SQLInvalidAuthorizationSpecException.class, e);
    assertTrue(e.getMessage().startsWith("Shardex SHX1409: access denied for user"), e.getMessage());
    assertTrue(!e.getMessage().contains("WRONG") && !e.getMessage().contains(READER_PASSWORD), e.getMessage());
    assertTrue(ms < 2_500, "refused at once, not after a pool timeout: " + ms + " ms");
  }

  @Test
  void everyWrongCredentialIsRefusedAlsoOnceTheUserIsLoggedIn() throws Exception {
    try (Connection good = connect(user, password); Statement s = good.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM auth_rows WHERE user_id IN (1, 2, 3, 4)")) {
      rs.next();
      assertEquals(4, rs.getInt(1));
      assertDenied(() -> connect(user, "WRONG").close());
      assertDenied(() -> connect(user, "").close());
      assertDenied(() -> DriverManager.getConnection(url + "?shardex.instance=auth&user=" + user).close());
      Properties p = new Properties();
      p.setProperty("user", user);
      p.setProperty("password", "WRONG");
      p.setProperty("shardex.instance", "auth");
      assertDenied(() -> DriverManager.getConnection(url, p).close());
      ShardexDataSource ds = new ShardexDataSource();
      ds.setUrl(url + "?shardex.instance=auth");
      assertDenied(() -> ds.getConnection(user, "WRONG").close());
      try (Connection viaDs = ds.getConnection(user, password)) {
        assertTrue(viaDs.isValid(2));
      }
    }
    // after the good connection closed, the cluster is still cached: still refused
    assertDenied(() -> connect(user, "WRONG").close());
    assertDenied(() -> connect("nobody_at_all", "x").close());
  }

  @Test
  void theSandboxUrlChecksExplicitCredentialsToo() {
    assertDenied(() -> DriverManager.getConnection(TestCluster.URL + "&user=" + user + "&password=WRONG").close());
    assertDenied(() -> DriverManager.getConnection(TestCluster.URL + "&user=" + user).close());
  }

  @Test
  void twoUsersOnOneDirectoryEachKeepTheirOwnRights() throws Exception {
    try (Connection reader = connect(READER, READER_PASSWORD); Statement s = reader.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT SUM(v) FROM auth_rows")) {
        rs.next();
        assertEquals(10, rs.getInt(1), "the reader reads every shard");
      }
      SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE auth_rows SET v = 9 WHERE user_id = 1"));
      assertEquals(1142, e.getErrorCode(), "the shard refuses the reader's write: " + e.getMessage());
    }
    try (Connection writer = connect(user, password); Statement s = writer.createStatement()) {
      assertEquals(1, s.executeUpdate("UPDATE auth_rows SET v = 1 WHERE user_id = 1"), "the owner's rights are its own");
    }
    assertDenied(() -> connect(READER, password).close());
  }
}
