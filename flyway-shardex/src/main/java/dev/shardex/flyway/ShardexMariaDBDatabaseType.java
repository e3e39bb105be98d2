package dev.shardex.flyway;

import java.sql.Connection;
import org.flywaydb.database.mysql.mariadb.MariaDBDatabaseType;

/** Flyway's MariaDB support for {@code jdbc:shardex:} URLs and Shardex connections whose shards run MariaDB. */
public class ShardexMariaDBDatabaseType extends MariaDBDatabaseType {
  @Override
  public int getPriority() {
    return ShardexDatabaseTypes.PRIORITY + 1;
  }

  @Override
  public boolean handlesJDBCUrl(String url) {
    return ShardexDatabaseTypes.handlesUrl(url);
  }

  @Override
  public String getDriverClass(String url, ClassLoader classLoader) {
    return ShardexDatabaseTypes.DRIVER;
  }

  @Override
  public boolean handlesDatabaseProductNameAndVersion(String productName, String productVersion, Connection connection) {
    return ShardexDatabaseTypes.isShardex(connection) && ShardexDatabaseTypes.isMariaDb(productVersion);
  }
}
