package dev.shardex.driver.joins;

import dev.shardex.driver.TestCluster;
import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** The one plain MariaDB server the cross-shard tests compare with: the same tables and rows there and in the sandbox. */
final class Oracle {
  private Oracle() {}

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
}
