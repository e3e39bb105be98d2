package dev.shardex.driver;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * Run by {@link SecretsTest} in a child JVM with every logger at TRACE: connects with a real
 * password in every form a URL or Properties can carry it, does ordinary and failing work, and
 * prints every public object's toString(), every exception chain with its stack, EXPLAIN ROUTE's
 * rows and the admin CLI's output. The parent searches all of it for the password.
 * Arguments: directory host:port, directory database, user, password.
 */
public final class SecretsProbe {
  private static final long START = System.nanoTime();

  private SecretsProbe() {}

  public static void main(String[] args) throws Exception {
    String hostPort = args[0];
    String db = args[1];
    String user = args[2];
    String password = args[3];
    String enc = URLEncoder.encode(password, StandardCharsets.UTF_8);
    String base = "jdbc:shardex:mysql://" + hostPort + "/" + db;
    exercise("options", base + "?user=" + user + "&password=" + enc + "&shardex.instance=p1&logger=Slf4JLogger", null);
    exercise("userinfo", "jdbc:shardex:mysql://" + user + ":" + enc + "@" + hostPort + "/" + db + "?shardex.instance=p2", null);
    Properties props = new Properties();
    props.setProperty("user", user);
    props.setProperty("password", password);
    props.setProperty("shardex.instance", "p3");
    exercise("properties", base, props);
    Properties wrong = new Properties();
    wrong.setProperty("user", "nobody_" + user);
    wrong.setProperty("password", password);
    wrong.setProperty("shardex.instance", "p4");
    wrong.setProperty("shardex.connectTimeoutMs", "500");
    exercise("unknown user", base, wrong);
    exercise("wrong shard password", base + "?user=" + user + "&password=" + enc + "&shard.0.password=" + enc + "x"
        + "&shardex.instance=p5&shardex.connectTimeoutMs=500", null);

    var ds = new ShardexDataSource();
    ds.setUrl(base);
    ds.setUser(user);
    ds.setPassword(password);
    System.out.println("datasource: " + ds);
    try (Connection c = ds.getConnection()) {
      System.out.println("datasource connection: " + c);
    } catch (SQLException e) {
      e.printStackTrace();
    }

    // the CLI (its own module, which depends on the driver) is checked by CliSecretsTest in cli
    System.out.println("probe done at " + (System.nanoTime() - START) / 1_000_000 + " ms");
  }

  private static void exercise(String label, String url, Properties props) {
    System.out.println("== " + label + " at " + (System.nanoTime() - START) / 1_000_000 + " ms");
    try (Connection c = props == null ? DriverManager.getConnection(url) : DriverManager.getConnection(url, props)) {
      System.out.println("connection: " + c + " / " + c.getMetaData().getURL() + " / " + c.getClientInfo());
      try (Statement s = c.createStatement()) {
        System.out.println("statement: " + s);
        s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS sp_t (user_id BIGINT, v VARCHAR(40))");
        s.executeUpdate("INSERT INTO sp_t (user_id, v) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        try (ResultSet rs = s.executeQuery("EXPLAIN ROUTE SELECT * FROM sp_t WHERE user_id IN (1, 2, 3)")) {
          System.out.println("result set: " + rs + " " + rs.getMetaData());
          while (rs.next()) {
            System.out.println("explain: " + rs.getObject(1) + " " + rs.getObject(2));
          }
        }
        try (ResultSet rs = s.executeQuery("SELECT user_id, COUNT(*) FROM sp_t GROUP BY user_id")) {
          System.out.println("merged: " + rs);
          while (rs.next()) {
            System.out.println(rs.getObject(1) + " " + rs.getObject(2));
          }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT v FROM sp_t WHERE user_id = ?")) {
          ps.setLong(1, 2);
          System.out.println("prepared: " + ps);
          try (ResultSet rs = ps.executeQuery()) {
            System.out.println("rows: " + rs + " " + rs.next());
          }
        }
        try {
          s.execute("SELEC broken syntax");
        } catch (SQLException e) {
          e.printStackTrace();
        }
        try {
          s.execute("SELECT * FROM no_such_table_here");
        } catch (SQLException e) {
          e.printStackTrace();
        }
      }
      System.out.println("cluster: " + TestCluster.cluster(c) + " " + TestCluster.cluster(c).config() + " "
          + TestCluster.cluster(c).directory() + " " + TestCluster.cluster(c).pools());
    } catch (SQLException | RuntimeException e) {
      e.printStackTrace();
      for (SQLException next = e instanceof SQLException sql ? sql.getNextException() : null; next != null; next = next.getNextException()) {
        next.printStackTrace();
      }
    }
  }
}
