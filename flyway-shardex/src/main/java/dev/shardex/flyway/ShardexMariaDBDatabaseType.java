package dev.shardex.flyway;

import java.sql.Connection;
import org.flywaydb.database.mysql.mariadb.MariaDBDatabaseType;

/**
 * Flyway's MariaDB support for Shardex connections whose shards run MariaDB. The URL itself is
 * claimed by {@link ShardexMySQLDatabaseType} alone (a URL only picks the driver, and Flyway 10 and
 * 11 order several URL claimants differently); once connected, Flyway picks this type by the
 * connection.
 */
public class ShardexMariaDBDatabaseType extends MariaDBDatabaseType {
  @Override
  public int getPriority() {
    return ShardexDatabaseTypes.PRIORITY + 1;
  }

  @Override
  public boolean handlesJDBCUrl(String url) {
    return false;
  }

  @Override
  public boolean handlesDatabaseProductNameAndVersion(String productName, String productVersion, Connection connection) {
    return ShardexDatabaseTypes.isShardex(connection) && ShardexDatabaseTypes.isMariaDb(productVersion);
  }
}
