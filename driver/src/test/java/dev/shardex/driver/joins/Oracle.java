package dev.shardex.driver.joins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.TestCluster;
import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The one plain MariaDB server the cross-shard tests compare with: the same tables and rows there and
 * in the sandbox, and the comparison of one statement's labels, types and rows on both.
 */
final class Oracle {
  private Oracle() {}

  /**
   * A test class's oracle, registered with {@code @RegisterExtension}: its {@code @BeforeAll} loads
   * the tables through {@link #load}, and the oracle's connection is closed after the class's tests.
   */
  static final class Loader implements AfterAllCallback {
    private Connection oracle;

    Connection load(List<String> tables, List<String> ddl, List<String> rows) throws SQLException {
      oracle = Oracle.load(tables, ddl, rows);
      return oracle;
    }

    @Override
    public void afterAll(ExtensionContext context) throws SQLException {
      if (oracle != null) {
        oracle.close();
      }
    }
  }

  /** Creates {@code tables} afresh by {@code ddl}, fills them by {@code rows} on the oracle and through Shardex; the oracle's connection. */
  static Connection load(List<String> tables, List<String> ddl, List<String> rows) throws SQLException {
    Connection oracle = SandboxCluster.shared("oracle", 1).connectShard(0);
    try (Statement o = oracle.createStatement()) {
      for (String t : tables) {
        o.execute("DROP TABLE IF EXISTS " + t);
      }
      for (String sql : ddl) {
        o.execute(sql);
      }
      for (String sql : rows) {
        o.execute(sql);
      }
    }
    TestCluster.run(ddl.toArray(String[]::new));
    if (!rows.isEmpty()) {
      TestCluster.run(rows.toArray(String[]::new));
    }
    return oracle;
  }

  /** Labels, type names and rows (as text); rows sorted unless {@code ordered}. */
  static List<String> answer(Connection c, String sql, boolean ordered, Object... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        ResultSetMetaData m = rs.getMetaData();
        StringBuilder head = new StringBuilder();
        for (int i = 1; i <= m.getColumnCount(); i++) {
          head.append(m.getColumnLabel(i)).append(':').append(m.getColumnTypeName(i)).append(' ');
        }
        List<String> rows = new ArrayList<>();
        while (rs.next()) {
          StringBuilder row = new StringBuilder();
          for (int i = 1; i <= m.getColumnCount(); i++) {
            row.append(rs.getString(i)).append('|');
          }
          rows.add(row.toString());
        }
        if (!ordered) {
          rows.sort(null);
        }
        rows.add(0, head.toString());
        return rows;
      }
    }
  }

  /** The same labels, types and rows from Shardex as from the plain server {@code oracle}, which returns rows. */
  static void same(Connection oracle, String sql, boolean ordered, Object... args) throws SQLException {
    try (Connection c = TestCluster.connect()) {
      List<String> expected = answer(oracle, sql, ordered, args);
      assertTrue(expected.size() > 1, "the oracle returns rows for " + sql);
      assertEquals(expected, answer(c, sql, ordered, args), sql);
    }
  }
}
