package dev.shardex.frameworks.flyway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.ShardexDataSource;
import dev.shardex.flyway.ShardexMariaDBDatabaseType;
import dev.shardex.flyway.ShardexMySQLDatabaseType;
import dev.shardex.frameworks.Sandbox;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.core.internal.database.DatabaseType;
import org.flywaydb.core.internal.database.DatabaseTypeRegister;
import org.flywaydb.database.mysql.MySQLDatabaseType;
import org.flywaydb.database.mysql.mariadb.MariaDBDatabaseType;
import org.junit.jupiter.api.Test;

/**
 * Flyway (10 and 11: the flyway10-it module runs these same tests on Flyway 10) as its API
 * documentation shows it: {@code Flyway.configure().dataSource(url, user, password)} or
 * {@code .dataSource(dataSource)}, migrations from {@code classpath:db/migration}, {@code migrate()}.
 * Only the URL is Shardex's, plus the shardex-flyway plugin on the classpath; default Shardex options.
 */
class FlywayTest {
  @Test
  void migrateWithTheUrl() throws Exception {
    Sandbox sandbox = new Sandbox("flyway_url");
    Flyway flyway = Flyway.configure().dataSource(sandbox.url(), null, null).load();
    migrateTwiceAndCheck(sandbox, flyway);
  }

  @Test
  void migrateWithADataSource() throws Exception {
    Sandbox sandbox = new Sandbox("flyway_ds");
    ShardexDataSource dataSource = new ShardexDataSource();
    dataSource.setUrl(sandbox.url());
    Flyway flyway = Flyway.configure().dataSource(dataSource).load();
    migrateTwiceAndCheck(sandbox, flyway);
  }

  /** The plugin claims jdbc:shardex: URLs and Shardex connections, and nothing else. */
  @Test
  void pluginClaimsShardexUrlsAndConnectionsOnly() throws Exception {
    Sandbox sandbox = new Sandbox("flyway_url");
    DatabaseType byUrl = DatabaseTypeRegister.getDatabaseTypeForUrl(sandbox.url(), null);
    assertInstanceOf(ShardexMySQLDatabaseType.class, byUrl);
    assertEquals("dev.shardex.driver.ShardexDriver", byUrl.getDriverClass(sandbox.url(), getClass().getClassLoader()));
    try (Connection shardex = DriverManager.getConnection(sandbox.url())) {
      // the sandbox's shards are MariaDB servers
      assertInstanceOf(ShardexMariaDBDatabaseType.class, DatabaseTypeRegister.getDatabaseTypeForConnection(shardex, null));
    }
    try (Connection shard = sandbox.cluster().connectShard(0)) {
      assertEquals(MariaDBDatabaseType.class, DatabaseTypeRegister.getDatabaseTypeForConnection(shard, null).getClass());
    }
    assertEquals(MySQLDatabaseType.class, DatabaseTypeRegister.getDatabaseTypeForUrl("jdbc:mysql://localhost/db", null).getClass());
  }

  private static void migrateTwiceAndCheck(Sandbox sandbox, Flyway flyway) throws Exception {
    MigrateResult first = flyway.migrate();
    assertTrue(first.success);
    assertEquals(2, first.migrationsExecuted);
    assertEquals("2", first.targetSchemaVersion);

    for (int shard = 0; shard < Sandbox.SHARDS; shard++) {
      assertTrue(sandbox.tableOnShard(shard, "posts"), "SHARDED posts on shard " + shard);
      assertTrue(sandbox.tableOnShard(shard, "comments"), "SHARDED comments on shard " + shard);
      assertEquals(3, sandbox.onShard(shard, "SELECT COUNT(*) FROM countries"), "GLOBAL countries rows on shard " + shard);
      // Flyway's history table is undeclared: SINGLE, on the home shard only.
      assertEquals(shard == 0, sandbox.tableOnShard(shard, "flyway_schema_history"), "history table on shard " + shard);
    }
    assertEquals(2, sandbox.onShard(0, "SELECT COUNT(*) FROM flyway_schema_history WHERE success = 1 AND version IS NOT NULL"));
    assertEquals(List.of("Belgium", "France", "Netherlands"), countries(sandbox));

    // Flyway's MySQL named lock (GET_LOCK ... RELEASE_LOCK) is not left held on any shard's session.
    String lock = "Flyway-" + ("`" + sandbox.cluster().databaseName() + "`.`flyway_schema_history`").hashCode();
    assertEquals(0, Arrays.stream(sandbox.onEachShard("SELECT COUNT(IS_USED_LOCK(?))", lock)).sum(), "shards holding " + lock);
    MigrateResult again = flyway.migrate();
    assertTrue(again.success);
    assertEquals(0, again.migrationsExecuted);
    assertEquals("2", flyway.info().current().getVersion().getVersion());
    assertFalse(flyway.info().pending().length > 0);
    assertEquals(2, sandbox.onShard(0, "SELECT COUNT(*) FROM flyway_schema_history WHERE version IS NOT NULL"));
  }

  private static List<String> countries(Sandbox sandbox) throws Exception {
    try (Connection c = DriverManager.getConnection(sandbox.url());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT name FROM countries ORDER BY code")) {
      List<String> names = new ArrayList<>();
      while (rs.next()) {
        names.add(rs.getString(1));
      }
      return names;
    }
  }
}
