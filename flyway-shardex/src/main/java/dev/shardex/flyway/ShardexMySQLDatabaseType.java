package dev.shardex.flyway;

import java.sql.Connection;
import org.flywaydb.database.mysql.MySQLDatabaseType;

/**
 * Flyway's MySQL support for {@code jdbc:shardex:} URLs (it names Shardex's driver, so
 * {@code Flyway.configure().dataSource(url, user, password)} works) and for Shardex connections
 * whose shards run MySQL.
 */
public class ShardexMySQLDatabaseType extends MySQLDatabaseType {
  @Override
  public int getPriority() {
    return ShardexDatabaseTypes.PRIORITY;
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
  public String getBackupDriverClass(String url, ClassLoader classLoader) {
    return null;
  }

  @Override
  public boolean handlesDatabaseProductNameAndVersion(String productName, String productVersion, Connection connection) {
    return ShardexDatabaseTypes.isShardex(connection) && !ShardexDatabaseTypes.isMariaDb(productVersion);
  }
}
