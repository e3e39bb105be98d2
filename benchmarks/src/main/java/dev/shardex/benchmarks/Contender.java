package dev.shardex.benchmarks;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * One way of reaching the sharded data. A benchmark thread asks its contender for connections once
 * ({@link #connect()}) and, per statement, which of them runs it ({@link #route}): the direct
 * contender holds one Connector/J connection per shard and picks the owner itself; the sharding
 * drivers hand out one logical connection and route inside.
 */
public abstract class Contender implements AutoCloseable {
  public static final String DIRECT = "direct";
  public static final String SHARDEX = "shardex";
  public static final String SHARDING_SPHERE = "shardingsphere";

  public abstract String name();

  /** The connections one benchmark thread uses for the whole run. */
  public abstract Connection[] connect() throws SQLException;

  /** Which of {@link #connect()}'s connections runs a statement for this user. */
  public abstract int route(long user);

  /**
   * Which connection runs the scatter COUNT, the {@code i}-th time. For the sharding drivers the one
   * logical connection (they fan out to every shard); for direct, one shard in turn: the issue's
   * baseline is "the same query on one shard holding a quarter of the data".
   */
  public abstract int scatter(long i);

  @Override
  public void close() throws SQLException {}

  /** Connector/J straight to the owning shard: the physical limit. */
  static final class Direct extends Contender {
    private final BenchCluster cluster;

    Direct(BenchCluster cluster) {
      this.cluster = cluster;
    }

    @Override
    public String name() {
      return DIRECT;
    }

    @Override
    public Connection[] connect() throws SQLException {
      Connection[] all = new Connection[cluster.shardCount()];
      for (int i = 0; i < all.length; i++) {
        all[i] = cluster.connectShard(i);
      }
      return all;
    }

    @Override
    public int route(long user) {
      return cluster.owner(user);
    }

    @Override
    public int scatter(long i) {
      return (int) (i % cluster.shardCount());
    }
  }

  /** Shardex pointed at the sandbox's directory (jdbc:shardex:mysql://...). */
  static final class Shardex extends Contender {
    private final String url;

    Shardex(String url) {
      this.url = url;
    }

    @Override
    public String name() {
      return SHARDEX;
    }

    @Override
    public Connection[] connect() throws SQLException {
      return new Connection[] {DriverManager.getConnection(url)};
    }

    @Override
    public int route(long user) {
      return 0;
    }

    @Override
    public int scatter(long i) {
      return 0;
    }
  }

  /** ShardingSphere-JDBC 5.5.x, inline sharding ds_${user_id % 4} over the same shards. */
  static final class ShardingSphere extends Contender {
    private final DataSource dataSource;

    ShardingSphere(BenchCluster cluster) throws SQLException {
      try {
        this.dataSource = org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory
            .createDataSource(yaml(cluster).getBytes(StandardCharsets.UTF_8));
      } catch (java.io.IOException e) {
        throw new SQLException("ShardingSphere configuration: " + e, e);
      }
    }

    /** The YAML configuration: one HikariCP pool per shard (as Shardex has), no SQL logging. */
    static String yaml(BenchCluster cluster) {
      StringBuilder y = new StringBuilder("databaseName: shardex_bench\ndataSources:\n");
      for (int i = 0; i < cluster.shardCount(); i++) {
        y.append("  ds_").append(i).append(":\n")
            .append("    dataSourceClassName: com.zaxxer.hikari.HikariDataSource\n")
            .append("    driverClassName: com.mysql.cj.jdbc.Driver\n")
            .append("    jdbcUrl: ").append(cluster.shardUrl(i)).append('\n')
            .append("    username: ").append(cluster.sandbox().user()).append('\n')
            .append("    password: ").append(cluster.sandbox().password()).append('\n')
            .append("    maximumPoolSize: 10\n")
            .append("    minimumIdle: 0\n");
      }
      int last = cluster.shardCount() - 1;
      y.append("rules:\n")
          .append("- !SHARDING\n")
          .append("  tables:\n");
      for (String table : new String[] {"users", "posts"}) {
        y.append("    ").append(table).append(":\n")
            .append("      actualDataNodes: ds_${0..").append(last).append("}.").append(table).append('\n')
            .append("      databaseStrategy:\n")
            .append("        standard:\n")
            .append("          shardingColumn: user_id\n")
            .append("          shardingAlgorithmName: by_user\n");
      }
      y.append("  bindingTables:\n")
          .append("    - users,posts\n")
          .append("  shardingAlgorithms:\n")
          .append("    by_user:\n")
          .append("      type: INLINE\n")
          .append("      props:\n")
          .append("        algorithm-expression: ds_${user_id % ").append(cluster.shardCount()).append("}\n")
          .append("props:\n")
          .append("  sql-show: false\n");
      return y.toString();
    }

    @Override
    public String name() {
      return SHARDING_SPHERE;
    }

    @Override
    public Connection[] connect() throws SQLException {
      return new Connection[] {dataSource.getConnection()};
    }

    @Override
    public int route(long user) {
      return 0;
    }

    @Override
    public int scatter(long i) {
      return 0;
    }

    @Override
    public void close() throws SQLException {
      if (dataSource instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (SQLException e) {
          throw e;
        } catch (Exception e) {
          throw new SQLException("closing ShardingSphere's data source: " + e, e);
        }
      }
    }
  }
}
