package dev.shardex.directory;

import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.MysqlError;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The directory's tables. Every statement is idempotent, so {@code init} can run on every start.
 *
 * <p>Keys are VARBINARY: a key is its exact bytes, so 'abc', 'ABC' and 'abc ' are three keys,
 * whatever the server's default collation says.
 *
 * <p>Why a {@code change_counter} row instead of relying on AUTO_INCREMENT for the change log:
 * auto-increment ids are handed out at insert time but become visible at commit time, so a poller
 * reading "id > 41" could see 43 before 42 commits and skip 42 forever. Taking the counter row's
 * lock makes change ids commit in order.
 */
public final class DirectorySchema {
  public static final int VERSION = 4;

  static final List<String> DDL = List.of(
      """
      CREATE TABLE IF NOT EXISTS shards (
        id INT NOT NULL PRIMARY KEY,
        url VARCHAR(1024) NOT NULL,
        status ENUM('ONLINE','READ_ONLY','OFFLINE') NOT NULL DEFAULT 'ONLINE',
        weight DOUBLE NOT NULL DEFAULT 1,
        key_count BIGINT NOT NULL DEFAULT 0
      ) ENGINE=InnoDB""",
      // version 4: each shard's read replicas (docs/replicas.md); the URL never holds a password
      """
      CREATE TABLE IF NOT EXISTS shard_replicas (
        shard_id INT NOT NULL,
        replica_id INT NOT NULL,
        url VARCHAR(1024) NOT NULL,
        weight DOUBLE NOT NULL DEFAULT 1,
        status ENUM('ONLINE','OFFLINE') NOT NULL DEFAULT 'ONLINE',
        PRIMARY KEY (shard_id, replica_id)
      ) ENGINE=InnoDB""",
      """
      CREATE TABLE IF NOT EXISTS keyspaces (
        name VARCHAR(64) NOT NULL PRIMARY KEY,
        key_type ENUM('BIGINT','STRING') NOT NULL,
        placement VARCHAR(32) NOT NULL DEFAULT 'least_loaded'
      ) ENGINE=InnoDB""",
      """
      CREATE TABLE IF NOT EXISTS logical_tables (
        name VARCHAR(128) NOT NULL PRIMARY KEY,
        kind ENUM('SHARDED','GLOBAL','SINGLE') NOT NULL,
        keyspace VARCHAR(64) NULL,
        key_column VARCHAR(128) NULL,
        home_shard INT NULL
      ) ENGINE=InnoDB""",
      """
      CREATE TABLE IF NOT EXISTS key_map (
        keyspace VARCHAR(64) NOT NULL,
        k VARBINARY(512) NOT NULL,
        shard_id INT NOT NULL,
        state ENUM('ACTIVE','FROZEN') NOT NULL DEFAULT 'ACTIVE',
        version BIGINT NOT NULL DEFAULT 1,
        PRIMARY KEY (keyspace, k),
        KEY by_shard (keyspace, shard_id)
      ) ENGINE=InnoDB""",
      """
      CREATE TABLE IF NOT EXISTS change_counter (
        id TINYINT NOT NULL PRIMARY KEY,
        last_change BIGINT NOT NULL
      ) ENGINE=InnoDB""",
      "INSERT IGNORE INTO change_counter (id, last_change) VALUES (1, 0)",
      """
      CREATE TABLE IF NOT EXISTS changes (
        id BIGINT NOT NULL PRIMARY KEY,
        kind ENUM('KEY','TABLE','SHARD','KEYSPACE','LOOKUP') NOT NULL,
        keyspace VARCHAR(64) NULL,
        k VARBINARY(512) NULL,
        ref VARCHAR(255) NULL,
        at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
      ) ENGINE=InnoDB""",
      """
      CREATE TABLE IF NOT EXISTS clients (
        id VARCHAR(200) NOT NULL PRIMARY KEY,
        info VARCHAR(255) NOT NULL,
        started_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
        heartbeat_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
        applied_change BIGINT NOT NULL DEFAULT 0
      ) ENGINE=InnoDB""",
      """
      CREATE TABLE IF NOT EXISTS moves (
        id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
        keyspace VARCHAR(64) NOT NULL,
        k VARCHAR(255) NOT NULL,
        from_shard INT NOT NULL,
        to_shard INT NOT NULL,
        step VARCHAR(32) NOT NULL,
        detail TEXT NULL,
        started_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
        updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
      ) ENGINE=InnoDB""",
      """
      CREATE TABLE IF NOT EXISTS xa_decisions (
        gtrid VARCHAR(64) NOT NULL PRIMARY KEY,
        client_id VARCHAR(200) NOT NULL,
        shards VARCHAR(1024) NOT NULL,
        decided_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
      ) ENGINE=InnoDB""",
      """
      CREATE TABLE IF NOT EXISTS sequence_columns (
        table_name VARCHAR(128) NOT NULL PRIMARY KEY,
        column_name VARCHAR(128) NOT NULL
      ) ENGINE=InnoDB""",
      """
      CREATE TABLE IF NOT EXISTS sequences (
        name VARCHAR(128) NOT NULL PRIMARY KEY,
        next_value BIGINT NOT NULL
      ) ENGINE=InnoDB""",
      """
      CREATE TABLE IF NOT EXISTS sequence_gaps (
        name VARCHAR(128) NOT NULL,
        lo BIGINT NOT NULL,
        hi BIGINT NOT NULL,
        PRIMARY KEY (name, lo)
      ) ENGINE=InnoDB""",
      """
      CREATE TABLE IF NOT EXISTS lookup_indexes (
        id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
        table_name VARCHAR(128) NOT NULL,
        column_name VARCHAR(128) NOT NULL,
        is_unique BOOLEAN NOT NULL,
        UNIQUE KEY by_column (table_name, column_name)
      ) ENGINE=InnoDB""",
      // v compares as the shards' default collation does; k is a shard key's exact bytes, as in key_map
      """
      CREATE TABLE IF NOT EXISTS lookup_unique (
        index_id INT NOT NULL,
        v VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
        k VARBINARY(512) NOT NULL,
        PRIMARY KEY (index_id, v)
      ) ENGINE=InnoDB""",
      """
      CREATE TABLE IF NOT EXISTS lookup_multi (
        index_id INT NOT NULL,
        v VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
        k VARBINARY(512) NOT NULL,
        PRIMARY KEY (index_id, v, k)
      ) ENGINE=InnoDB""",
      """
      CREATE TABLE IF NOT EXISTS schema_version (
        id TINYINT NOT NULL PRIMARY KEY,
        version INT NOT NULL
      ) ENGINE=InnoDB""",
      "INSERT IGNORE INTO schema_version (id, version) VALUES (1, " + VERSION + ")");

  private DirectorySchema() {}

  /** Creates whatever part of the schema is missing; safe to run concurrently and repeatedly. */
  public static void init(Connection connection) throws SQLException {
    try (Statement s = connection.createStatement()) {
      for (String ddl : DDL) {
        s.execute(ddl);
      }
    }
    addMoveColumns(connection);
  }

  /**
   * Version 3: the change log names lookup entries (kind LOOKUP). Version 2: what the mover needs to resume a move (the change it waits on, the copy's row count
   * and checksum). Added column by column after checking information_schema, because MySQL 8 has
   * no {@code ADD COLUMN IF NOT EXISTS}; a concurrent init that loses the race gets a duplicate
   * column error (1060), which means the column is there.
   */
  static final List<String[]> MOVE_COLUMNS = List.of(
      new String[] {"lookup", "ALTER TABLE changes MODIFY kind ENUM('KEY','TABLE','SHARD','KEYSPACE','LOOKUP') NOT NULL"},
      new String[] {"change_id", "ALTER TABLE moves ADD COLUMN change_id BIGINT NULL"},
      new String[] {"row_count", "ALTER TABLE moves ADD COLUMN row_count BIGINT NULL"},
      new String[] {"checksum", "ALTER TABLE moves ADD COLUMN checksum VARCHAR(64) NULL"},
      new String[] {"keyspace", "ALTER TABLE moves ADD INDEX by_key (keyspace, k)"});

  private static void addMoveColumns(Connection connection) throws SQLException {
    for (String[] column : MOVE_COLUMNS) {
      boolean isIndex = column[1].contains("ADD INDEX");
      String probe = column[0].equals("lookup")
          ? "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'changes' AND COLUMN_NAME = 'kind' AND COLUMN_TYPE LIKE ?"
          : isIndex
          ? "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'moves' AND INDEX_NAME = 'by_key'"
          : "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'moves' AND COLUMN_NAME = ?";
      try (java.sql.PreparedStatement ps = connection.prepareStatement(probe)) {
        if (column[0].equals("lookup")) {
          ps.setString(1, "%LOOKUP%");
        } else if (!isIndex) {
          ps.setString(1, column[0]);
        }
        try (java.sql.ResultSet rs = ps.executeQuery()) {
          rs.next();
          if (rs.getInt(1) > 0) {
            continue;
          }
        }
      }
      try (Statement s = connection.createStatement()) {
        s.execute(column[1]);
      } catch (SQLException e) {
        if (ErrorKind.server(e) != MysqlError.DUPLICATE_COLUMN && ErrorKind.server(e) != MysqlError.DUPLICATE_KEY_NAME) {
          throw e;
        }
      }
    }
    try (Statement s = connection.createStatement()) {
      s.executeUpdate("UPDATE schema_version SET version = " + VERSION + " WHERE id = 1 AND version < " + VERSION);
    }
  }
}
