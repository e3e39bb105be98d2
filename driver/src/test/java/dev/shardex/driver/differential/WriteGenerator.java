package dev.shardex.driver.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Generated writes for the differential test: upserts (REPLACE, INSERT ... ON DUPLICATE KEY UPDATE,
 * INSERT IGNORE, INSERT without a column list) against a table whose every unique key contains
 * the shard key and two whose PRIMARY or UNIQUE key does not, key changes in ON DUPLICATE KEY
 * UPDATE, and multi-statement texts with and without a refused part. Each write's effect is
 * checked by reading the whole table on both sides.
 */
final class WriteGenerator {
  /** Tables the writes use, created on both sides before they run (SHARDED by user_id through Shardex). */
  static final List<String> DDL = List.of(
      "CREATE TABLE up_keyed (user_id BIGINT NOT NULL, k INT NOT NULL, v INT NULL, PRIMARY KEY (user_id, k))",
      "CREATE TABLE up_by_id (id BIGINT NOT NULL PRIMARY KEY, user_id BIGINT NOT NULL, v INT NULL)",
      "CREATE TABLE up_unique (user_id BIGINT NOT NULL, k INT NOT NULL, email VARCHAR(20) NOT NULL, v INT NULL,"
          + " PRIMARY KEY (user_id, k), UNIQUE KEY up_email (email))");
  static final List<String> TABLES = List.of("up_keyed", "up_by_id", "up_unique");
  /** How each table is read back: its rows in key order. */
  static final List<String> READ = List.of("SELECT * FROM up_keyed ORDER BY user_id, k",
      "SELECT * FROM up_by_id ORDER BY id", "SELECT * FROM up_unique ORDER BY user_id, k");

  /** One write text and the table whose rows show its effect. */
  record Write(String sql, String table, String origin) {
    String read() {
      return READ.get(TABLES.indexOf(table));
    }
  }

  private final Random r;
  private final List<Long> users;
  /**
   * up_by_id's ids: each seed has its own range, so a plain INSERT never reuses an id. (Uniqueness
   * of a key without the shard key holds per shard only: a plain INSERT of an id that exists on
   * another shard succeeds; README "Not supported yet".)
   */
  private final long firstId;
  private long nextId;

  WriteGenerator(long seed, List<Long> users) {
    this.r = new Random(seed);
    this.users = users;
    this.firstId = Math.floorMod(seed, 1000) * 1000 + 1;
    this.nextId = firstId;
  }

  private long usedId() {
    return firstId + r.nextInt((int) (nextId - firstId + 1));
  }

  private long user() {
    return users.get(r.nextInt(users.size()));
  }

  private int k() {
    return r.nextInt(4);
  }

  private int v() {
    return r.nextInt(100);
  }

  List<Write> generate(int count, String origin) {
    List<Write> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(new Write(next(), null, origin + " #" + (i + 1)));
    }
    return out.stream().map(w -> new Write(w.sql(), tableOf(w.sql()), w.origin())).toList();
  }

  private static String tableOf(String sql) {
    for (String t : TABLES) {
      if (sql.contains(" " + t + " ") || sql.contains(" " + t + "(")) {
        return t;
      }
    }
    throw new IllegalStateException(sql);
  }

  private String next() {
    long u = user();
    int k = k();
    int v = v();
    String email = "'e" + r.nextInt(6) + "@x'";
    return switch (r.nextInt(16)) {
      case 0 -> "INSERT INTO up_keyed (user_id, k, v) VALUES (" + u + ", " + k + ", " + v + ")";
      case 1 -> "REPLACE INTO up_keyed (user_id, k, v) VALUES (" + u + ", " + k + ", " + v + ")";
      case 2 -> "INSERT INTO up_keyed (user_id, k, v) VALUES (" + u + ", " + k + ", " + v + ") ON DUPLICATE KEY UPDATE v = v + 1";
      case 3 -> "INSERT IGNORE INTO up_keyed (user_id, k, v) VALUES (" + u + ", " + k + ", " + v + ")";
      case 4 -> "INSERT INTO up_keyed VALUES (" + u + ", " + k + ", " + v + ")";
      case 5 -> "INSERT INTO up_keyed (user_id, k, v) VALUES (" + u + ", " + k + ", " + v
          + ") ON DUPLICATE KEY UPDATE v = VALUES(v), user_id = VALUES(user_id)";
      case 6 -> "INSERT INTO up_keyed (user_id, k, v) VALUES (" + u + ", " + k + ", " + v
          + ") ON DUPLICATE KEY UPDATE user_id = user_id + 1";
      case 7 -> "REPLACE INTO up_keyed SET user_id = " + u + ", k = " + k + ", v = " + v;
      case 8 -> "INSERT INTO up_by_id (id, user_id, v) VALUES (" + nextId++ + ", " + u + ", " + v + ")";
      case 9 -> "REPLACE INTO up_by_id (id, user_id, v) VALUES (" + usedId() + ", " + u + ", " + v + ")";
      case 10 -> "INSERT INTO up_by_id (id, user_id, v) VALUES (" + usedId() + ", " + u + ", " + v
          + ") ON DUPLICATE KEY UPDATE v = v + 1";
      case 11 -> "INSERT IGNORE INTO up_by_id VALUES (" + usedId() + ", " + u + ", " + v + ")";
      case 12 -> "REPLACE INTO up_unique (user_id, k, email, v) VALUES (" + u + ", " + k + ", " + email + ", " + v + ")";
      case 13 -> "INSERT INTO up_unique (user_id, k, email, v) VALUES (" + u + ", " + k + ", " + email + ", " + v
          + ") ON DUPLICATE KEY UPDATE v = v + 1";
      case 14 -> "UPDATE up_keyed SET v = v + 1 WHERE user_id = " + u + "; DELETE FROM up_keyed WHERE user_id = " + user()
          + " AND k = " + k() + "; DELETE FROM up_keyed WHERE v = " + v;
      default -> "UPDATE up_keyed SET v = 7 WHERE user_id = " + u + "; INSERT INTO up_keyed (user_id, k, v) VALUES ("
          + user() + ", " + (10 + k) + ", 1) ON DUPLICATE KEY UPDATE v = 2";
    };
  }
}
