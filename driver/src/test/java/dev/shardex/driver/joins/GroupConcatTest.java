package dev.shardex.driver.joins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * GROUP_CONCAT across shards truncated at the session's {@code group_concat_max_len} exactly as one
 * server truncates it (issue 20): with SEPARATOR, ORDER BY and DISTINCT, one group spread over
 * every shard, groups of the shard key, groups over a cross-shard join; labels, types and rows
 * compared with one plain MariaDB server holding the same rows, at a cut of 10 and 25 bytes and at
 * the default. (MariaDB's warning 1260, "Row %u was cut by GROUP_CONCAT()", is not compared:
 * Shardex's statements report no server warnings yet, one shard's neither.)
 */
final class GroupConcatTest {
  @RegisterExtension static final Oracle.Loader LOADER = new Oracle.Loader();
  private static Connection oracle;

  @BeforeAll
  static void load() throws SQLException {
    List<String> users = new ArrayList<>();
    List<String> orders = new ArrayList<>();
    for (int id = 1; id <= 8; id++) {
      users.add("(" + id + ", 'user " + (char) ('a' + id % 3) + "')");
    }
    for (int id = 1; id <= 30; id++) {
      orders.add("(" + id + ", " + (id % 4 + 1) + ", " + (id % 8 + 1) + ", 'code-" + (id % 7) + "')");
    }
    oracle = LOADER.load(List.of("gc_users", "gc_orders"), List.of(
        "CREATE TABLE gc_users (id BIGINT PRIMARY KEY, name VARCHAR(20)) COMMENT='shardex:sharded key=id'",
        "CREATE TABLE gc_orders (id BIGINT PRIMARY KEY, seller_id BIGINT NOT NULL, buyer_id BIGINT, code VARCHAR(20))"
            + " COMMENT='shardex:sharded key=seller_id'"),
        List.of("INSERT INTO gc_users VALUES " + String.join(", ", users),
            "INSERT INTO gc_orders VALUES " + String.join(", ", orders)));
  }

  @ParameterizedTest(name = "group_concat_max_len={0}: {1}")
  @CsvSource(delimiter = ';', value = {
      "10;SELECT GROUP_CONCAT(id ORDER BY id SEPARATOR '') AS g FROM gc_orders",
      "25;SELECT GROUP_CONCAT(id ORDER BY id SEPARATOR '') AS g FROM gc_orders",
      "25;SELECT buyer_id, GROUP_CONCAT(DISTINCT code ORDER BY code DESC SEPARATOR ' | ') AS g FROM gc_orders GROUP BY buyer_id",
      "10;SELECT seller_id, GROUP_CONCAT(code ORDER BY id SEPARATOR '#') AS g FROM gc_orders GROUP BY seller_id",
      "10;SELECT u.name, GROUP_CONCAT(o.code ORDER BY o.id) AS g FROM gc_orders o JOIN gc_users u ON o.buyer_id = u.id GROUP BY u.name",
      "1048576;SELECT buyer_id, GROUP_CONCAT(DISTINCT code ORDER BY code DESC SEPARATOR ' | ') AS g FROM gc_orders GROUP BY buyer_id"})
  void truncatedAsOneServer(long maxLen, String sql) throws SQLException {
    try (Connection c = TestCluster.connect()) {
      set(oracle, maxLen);
      set(c, maxLen);
      assertEquals(Oracle.answer(oracle, sql, false), Oracle.answer(c, sql, false), sql);
    }
    set(oracle, 1048576);
  }

  private static void set(Connection c, long maxLen) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("SET SESSION group_concat_max_len = " + maxLen);
    }
  }
}
