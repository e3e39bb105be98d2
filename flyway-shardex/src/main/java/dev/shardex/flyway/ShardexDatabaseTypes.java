package dev.shardex.flyway;

import dev.shardex.driver.jdbc.ShardexConnection;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * What the two Shardex database types share: which URLs and connections are Shardex's, which driver
 * opens them, and a priority above Flyway's own MySQL (0) and MariaDB (1) types, so that a Shardex
 * connection (whose metadata is a shard's: "MySQL", "10.11.5-MariaDB") is claimed by a Shardex type
 * also when Flyway is given a DataSource instead of the URL.
 */
final class ShardexDatabaseTypes {
  static final String URL_PREFIX = "jdbc:shardex:";
  static final String DRIVER = "dev.shardex.driver.ShardexDriver";
  static final int PRIORITY = 10;

  private ShardexDatabaseTypes() {}

  static boolean handlesUrl(String url) {
    return url != null && url.startsWith(URL_PREFIX);
  }

  /** True for a Shardex logical connection, also behind a pool's proxy. */
  static boolean isShardex(Connection connection) {
    try {
      return connection != null && connection.isWrapperFor(ShardexConnection.class);
    } catch (SQLException e) {
      return false;
    }
  }

  static boolean isMariaDb(String productVersion) {
    return productVersion != null && productVersion.contains("MariaDB");
  }
}
