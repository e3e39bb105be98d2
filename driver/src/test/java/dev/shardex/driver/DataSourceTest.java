package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.cluster.ShardexProperty;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** How applications and frameworks find and configure the driver: DataSource, DriverManager, properties. */
class DataSourceTest {

  private static ShardexDataSource dataSource() {
    ShardexDataSource ds = new ShardexDataSource();
    ds.setUrl(TestCluster.URL);
    return ds;
  }

  // ---- ShardexDataSource ----------------------------------------------------------------------------

  @Test
  void getConnection_sandboxUrl_worksEndToEnd() throws SQLException {
    DataSource ds = dataSource();
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS ds_rows (user_id BIGINT PRIMARY KEY, v VARCHAR(64))");
      s.executeUpdate("DELETE FROM ds_rows WHERE user_id = 8101");
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO ds_rows (user_id, v) VALUES (?, ?)")) {
        ps.setLong(1, 8101);
        ps.setString(2, "through the DataSource");
        assertEquals(1, ps.executeUpdate());
      }
      try (ResultSet rs = s.executeQuery("SELECT v FROM ds_rows WHERE user_id = 8101")) {
        assertTrue(rs.next());
        assertEquals("through the DataSource", rs.getString(1));
        assertFalse(rs.next());
      }
    }
    long onShards = 0;
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      onShards += TestCluster.countOnShard(shard, "ds_rows", "user_id = 8101");
    }
    assertEquals(1, onShards, "the row sits on exactly one shard");
  }

  @Test
  void getConnection_twice_twoWorkingConnections() throws SQLException {
    DataSource ds = dataSource();
    try (Connection a = ds.getConnection(); Connection b = ds.getConnection();
        Statement sa = a.createStatement(); Statement sb = b.createStatement();
        ResultSet ra = sa.executeQuery("SELECT 1"); ResultSet rb = sb.executeQuery("SELECT 2")) {
      assertTrue(ra.next());
      assertTrue(rb.next());
      assertEquals(1, ra.getInt(1));
      assertEquals(2, rb.getInt(1));
    }
  }

  @Test
  void getConnection_closed_isClosed() throws SQLException {
    Connection c = dataSource().getConnection();
    assertFalse(c.isClosed());
    assertTrue(c.isValid(5));
    c.close();
    assertTrue(c.isClosed());
  }

  @Test
  void setProperty_hintsOn_honouredByItsConnections() throws Exception {
    ShardexDataSource ds = dataSource();
    ds.setProperty(ShardexProperty.HINTS, "true");
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
        try (ResultSet rs = s.executeQuery("/* shardex:shard=" + shard + " */ SELECT @@port")) {
          assertTrue(rs.next());
          assertEquals(port(TestCluster.sandbox().shardUrl(shard)), rs.getInt(1), "hinted to shard " + shard);
        }
      }
    }
  }

  private static int port(String jdbcUrl) {
    String hostPort = jdbcUrl.substring(jdbcUrl.indexOf("//") + 2, jdbcUrl.indexOf('/', jdbcUrl.indexOf("//") + 2));
    return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
  }

  @Test
  void setProperty_badValue_failsWithShx1501() {
    ShardexDataSource ds = dataSource();
    ds.setProperty(ShardexProperty.SCATTER_WRITES, "sometimes");
    SQLException e = assertThrows(SQLException.class, ds::getConnection);
    assertEquals("HY024", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Shardex SHX1501: option shardex.scatterWrites has the invalid value 'sometimes'"),
        e.getMessage());
  }

  @Test
  void getConnection_noUrl_fails08001() {
    SQLException e = assertThrows(SQLException.class, () -> new ShardexDataSource().getConnection());
    assertEquals("08001", e.getSQLState());
    assertTrue(e.getMessage().contains("setUrl"), e.getMessage());
  }

  @Test
  void getConnection_notAShardexUrl_fails08001WithoutPassword() {
    ShardexDataSource ds = new ShardexDataSource();
    ds.setUrl("jdbc:mysql://127.0.0.1:1/x?user=u&password=hunter2");
    SQLException e = assertThrows(SQLException.class, ds::getConnection);
    assertEquals("08001", e.getSQLState());
    assertTrue(e.getMessage().contains("jdbc:shardex:"), e.getMessage());
    assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
  }

  @Test
  void unwrap_itself_andNotAWrapperForOthers() throws SQLException {
    ShardexDataSource ds = dataSource();
    assertSame(ds, ds.unwrap(ShardexDataSource.class));
    assertTrue(ds.isWrapperFor(DataSource.class));
    assertFalse(ds.isWrapperFor(Connection.class));
    assertThrows(SQLException.class, () -> ds.unwrap(Connection.class));
  }

  // ---- Driver ------------------------------------------------------------------------------------------

  @Test
  void getPropertyInfo_everyPropertyWithItsDefault() {
    DriverPropertyInfo[] infos = new ShardexDriver().getPropertyInfo(TestCluster.URL, new Properties());
    Map<String, DriverPropertyInfo> byName =
        Arrays.stream(infos).collect(Collectors.toMap(i -> i.name, Function.identity()));

    assertEquals(ShardexProperty.values().length, infos.length, "one entry per property, no duplicates");
    for (ShardexProperty p : ShardexProperty.values()) {
      DriverPropertyInfo info = byName.get(p.key());
      assertNotNull(info, "getPropertyInfo lists " + p.key());
      assertEquals(p.defaultValue(), info.value, p.key());
      assertNotNull(info.description, p.key());
      assertTrue(info.description.contains(p.description()), p.key() + ": " + info.description);
      assertFalse(info.required, p.key() + " has a default, so it is not required");
    }
    assertEquals(Arrays.asList("true", "false"), Arrays.asList(byName.get("shardex.hints").choices));
    assertEquals(Arrays.asList("deny", "allow"), Arrays.asList(byName.get("shardex.scatterWrites").choices));
  }

  @Test
  void getPropertyInfo_givenValue_reported() {
    Properties given = new Properties();
    given.setProperty("shardex.pollMs", "250");
    DriverPropertyInfo poll = Arrays.stream(new ShardexDriver().getPropertyInfo(TestCluster.URL, given))
        .filter(i -> i.name.equals("shardex.pollMs")).findFirst().orElseThrow();
    assertEquals("250", poll.value);
  }

  @Test
  void getPropertyInfo_nullProperties_defaults() {
    DriverPropertyInfo[] infos = new ShardexDriver().getPropertyInfo(TestCluster.URL, null);
    assertEquals(ShardexProperty.values().length, infos.length);
  }

  @Test
  void acceptsURL_onlyShardexUrls() throws SQLException {
    Driver d = new ShardexDriver();
    assertTrue(d.acceptsURL("jdbc:shardex:mysql://h:3306/dir"));
    assertTrue(d.acceptsURL("jdbc:shardex:sandbox:x?shards=2"));
    assertTrue(d.acceptsURL(TestCluster.URL));
    assertFalse(d.acceptsURL("jdbc:mysql://h:3306/db"));
    assertFalse(d.acceptsURL("jdbc:mariadb://h:3306/db"));
    assertFalse(d.acceptsURL("jdbc:shardex"));
    assertFalse(d.acceptsURL("shardex:mysql://h/db"));
    assertFalse(d.acceptsURL("jdbc:postgresql://h/db?x=jdbc:shardex:"));
    assertFalse(d.acceptsURL(""));
    assertFalse(d.acceptsURL(null));
  }

  @Test
  void connect_notOurUrl_null() throws SQLException {
    assertNull(new ShardexDriver().connect("jdbc:mysql://127.0.0.1:1/x", new Properties()));
  }

  @Test
  void driverManager_shardexUrl_findsShardexDriver() throws SQLException {
    assertInstanceOf(ShardexDriver.class, DriverManager.getDriver(TestCluster.URL));
    try (Connection c = DriverManager.getConnection(TestCluster.URL); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT 41 + 1")) {
      assertTrue(rs.next());
      assertEquals(42, rs.getInt(1));
    }
  }

  @Test
  void serviceLoader_listsShardexDriver() {
    assertTrue(ServiceLoader.load(Driver.class).stream().anyMatch(p -> p.type() == ShardexDriver.class),
        "META-INF/services/java.sql.Driver names dev.shardex.driver.ShardexDriver");
  }

  /** In a JVM that has never touched a Shardex class, DriverManager alone must find the driver. */
  @Test
  void driverManager_freshJvmWithoutClassForName_findsShardexDriver() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), FreshJvmProbe.class.getName())
        .redirectErrorStream(true).start();
    String out;
    try (InputStream in = p.getInputStream()) {
      ByteArrayOutputStream buffer = new ByteArrayOutputStream();
      in.transferTo(buffer);
      out = buffer.toString(StandardCharsets.UTF_8).strip();
    }
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "probe JVM finished");
    assertEquals(0, p.exitValue(), out);
    assertEquals("dev.shardex.driver.ShardexDriver", out.lines().reduce((a, b) -> b).orElse(""), out);
  }

  /** Run in a fresh JVM by the test above: asks DriverManager only, loads no Shardex class itself. */
  static final class FreshJvmProbe {
    public static void main(String[] args) throws SQLException {
      System.out.println(DriverManager.getDriver("jdbc:shardex:mysql://127.0.0.1:1/dir").getClass().getName());
    }
  }
}
