package dev.shardex.junit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.MySQLContainer;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

/**
 * The {@link Backend#CONTAINERS} cluster: one MySQL container per shard plus one for the directory,
 * started in parallel, the directory initialised like jdbc:shardex:sandbox: does (schema, shards
 * 0..N-1, BIGINT key space {@code default}).
 */
final class MySqlContainers {
  /** The image; override with -Dshardex.test.mysqlImage=mysql:8.4 (any MySQL 8). */
  static final String IMAGE_PROPERTY = "shardex.test.mysqlImage";
  private static final String DEFAULT_IMAGE = "mysql:8.0";
  private static final String DIRECTORY_DATABASE = "shardex_directory";
  /** root: XA recovery and moves need server-wide rights. The containers live only for the test run. */
  private static final String USER = "root";
  private static final String PASSWORD = "shardex-test";

  private MySqlContainers() {}

  static ShardexExtension.Started start(String name, int shards) {
    requireDocker();
    DockerImageName image = DockerImageName.parse(System.getProperty(IMAGE_PROPERTY, DEFAULT_IMAGE))
        .asCompatibleSubstituteFor("mysql");
    String database = name.replaceAll("[^A-Za-z0-9_]", "_");
    MySQLContainer<?> directory = container(image, DIRECTORY_DATABASE);
    List<MySQLContainer<?>> all = new ArrayList<>(List.of(directory));
    for (int i = 0; i < shards; i++) {
      all.add(container(image, database));
    }
    Runnable stop = () -> all.forEach(MySQLContainer::stop);
    try {
      Startables.deepStart(all).join();
      List<String> shardUrls = new ArrayList<>();
      for (MySQLContainer<?> shard : all.subList(1, all.size())) {
        shardUrls.add(url(shard, database));
      }
      initDirectory(url(directory, DIRECTORY_DATABASE), shardUrls);
      String shardexUrl = "jdbc:shardex:" + url(directory, DIRECTORY_DATABASE).substring("jdbc:".length())
          + "?user=" + USER + "&password=" + PASSWORD + "&allowPublicKeyRetrieval=true";
      return new ShardexExtension.Started(new ShardexCluster(Backend.CONTAINERS, shardexUrl, shardUrls, USER, PASSWORD), stop);
    } catch (RuntimeException | SQLException e) {
      stop.run();
      throw new ExtensionConfigurationException("Cannot start the MySQL containers of cluster '" + name + "' (" + image
          + "): " + e.getMessage(), e);
    }
  }

  /** Testcontainers' own error, when no engine is found, is a long list of strategies; say it plainly. */
  private static void requireDocker() {
    boolean available;
    try {
      available = DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException e) {
      available = false;
    }
    if (!available) {
      throw new ExtensionConfigurationException("@ShardedCluster(backend = CONTAINERS) needs Docker, and no Docker engine "
          + "is reachable (checked DOCKER_HOST, the Docker socket and ~/.testcontainers.properties). Start Docker, or use "
          + "backend = SANDBOX (embedded MariaDB, no Docker needed; the default).");
    }
  }

  private static MySQLContainer<?> container(DockerImageName image, String database) {
    return new MySQLContainer<>(image).withDatabaseName(database).withUsername(USER).withPassword(PASSWORD);
  }

  private static String url(MySQLContainer<?> container, String database) {
    return "jdbc:mysql://" + container.getHost() + ":" + container.getMappedPort(MySQLContainer.MYSQL_PORT) + "/" + database;
  }

  private static void initDirectory(String directoryUrl, List<String> shardUrls) throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(directoryUrl + "?allowPublicKeyRetrieval=true");
    config.setUsername(USER);
    config.setPassword(PASSWORD);
    config.setMaximumPoolSize(1);
    config.setPoolName("shardex-junit-bootstrap");
    try (HikariDataSource dataSource = new HikariDataSource(config)) {
      DirectoryStore store = new DirectoryStore(dataSource);
      store.init();
      for (int i = 0; i < shardUrls.size(); i++) {
        store.addShard(i, shardUrls.get(i), 1.0);
      }
      store.addKeySpace(new KeySpace(KeySpace.DEFAULT, KeyType.BIGINT, KeySpace.LEAST_LOADED));
    }
  }
}
