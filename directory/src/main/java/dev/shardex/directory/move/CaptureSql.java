package dev.shardex.directory.move;

import dev.shardex.directory.move.TableShape.Column;
import dev.shardex.directory.move.TableShape.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The SQL of {@link ChangeCapture}: its two tables on a source shard and the three triggers per
 * table that record, in the writing transaction, the primary key of every row of a moving key that
 * is inserted, updated or deleted.
 *
 * <p>A recorded primary key is each column's text as the mover reads it ({@code CAST(c AS CHAR)}
 * for numbers and dates, the string itself, or hex for bytes), so it binds back exactly as the
 * copier's own primary keys do. The key is matched as the key map spells it (utf8mb4 bytes, or
 * lower-case hex for a binary key column).
 */
final class CaptureSql {
  static final String MOVING = "shardex_moving";
  static final String CHANGES = "shardex_changes";
  /** Primary-key columns a change record holds; a table with more is not captured (the mover reads it whole). */
  static final int MAX_PK = 4;
  /** A session variable the mover sets on its own connections: its writes are not recorded. */
  static final String OFF = "shardex_capture_off";
  static final String OFF_ASSIGNMENT = "@" + OFF + " = 1";

  static final String CREATE_MOVING = "CREATE TABLE IF NOT EXISTS " + MOVING
      + " (move_id BIGINT NOT NULL PRIMARY KEY, k VARBINARY(512) NOT NULL, KEY by_key (k)) ENGINE=InnoDB";
  static final String CREATE_CHANGES = "CREATE TABLE IF NOT EXISTS " + CHANGES
      + " (seq BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, move_id BIGINT NOT NULL, tbl VARCHAR(128) NOT NULL,"
      + " p1 VARCHAR(1024) NULL, p2 VARCHAR(1024) NULL, p3 VARCHAR(1024) NULL, p4 VARCHAR(1024) NULL,"
      + " KEY by_move (move_id, seq)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";

  private CaptureSql() {}

  /** Whether the table's rows can be recorded by primary key. */
  static boolean capturable(TableShape shape) {
    return shape.primaryKey != null && shape.primaryKey.length <= MAX_PK && shape.primaryKeyTextStable;
  }

  /** The triggers' names, one per event (insert, update, delete). */
  static List<String> triggerNames(TableShape shape) {
    List<String> names = new ArrayList<>();
    for (String event : List.of("i", "u", "d")) {
      names.add(triggerName(shape.table, event));
    }
    return names;
  }

  /**
   * The three CREATE TRIGGER statements, in the order of {@link #triggerNames}. Shaped for cost: a
   * write of a key that is not moving pays one indexed lookup in a table of a few rows (an
   * {@code INSERT ... SELECT} in a trigger costs about 2 ms a row on MariaDB 10.11, measured, so
   * the record is an {@code INSERT ... VALUES} behind an {@code IF}).
   */
  static List<String> createTriggers(TableShape shape) {
    String table = TableShape.quote(shape.table);
    List<String> names = triggerNames(shape);
    return List.of(
        trigger(names.get(0), "INSERT", table, record(shape, "NEW")),
        trigger(names.get(1), "UPDATE", table, record(shape, "NEW") + " IF NOT (" + unchanged(shape) + ") THEN "
            + record(shape, "OLD") + " END IF;"),
        trigger(names.get(2), "DELETE", table, record(shape, "OLD")));
  }

  private static String trigger(String name, String event, String table, String body) {
    return "CREATE TRIGGER " + TableShape.quote(name) + " AFTER " + event + " ON " + table
        + " FOR EACH ROW BEGIN DECLARE mid BIGINT; IF @" + OFF + " IS NULL THEN " + body + " END IF; END";
  }

  /** Records the row's primary key if its key is moving (one move at most). */
  private static String record(TableShape shape, String row) {
    StringBuilder sql = new StringBuilder("SET mid = (SELECT move_id FROM " + MOVING + " WHERE k = ")
        .append(keyText(shape, row)).append(" LIMIT 1); IF mid IS NOT NULL THEN INSERT INTO ").append(CHANGES)
        .append(" (move_id, tbl, p1, p2, p3, p4) VALUES (mid, ").append(literal(shape.table));
    for (int i = 0; i < MAX_PK; i++) {
      sql.append(", ").append(i < shape.primaryKey.length ? pkText(shape.columns.get(shape.primaryKey[i]), row) : "NULL");
    }
    return sql.append("); END IF;").toString();
  }

  /** True when an UPDATE kept the row's primary key and key: then the NEW record is enough. */
  private static String unchanged(TableShape shape) {
    StringBuilder same = new StringBuilder();
    for (int i : shape.primaryKey) {
      String c = TableShape.quote(shape.columns.get(i).name());
      same.append("OLD.").append(c).append(" <=> NEW.").append(c).append(" AND ");
    }
    String k = TableShape.quote(shape.keyColumn);
    return same.append("OLD.").append(k).append(" <=> NEW.").append(k).toString();
  }

  private static String pkText(Column c, String row) {
    String col = row + "." + TableShape.quote(c.name());
    return switch (c.kind()) {
      case BYTES -> "HEX(" + col + ")";
      case TEXT -> "CONVERT(" + col + " USING utf8mb4)";
      case CAST -> "CAST(" + col + " AS CHAR)";
    };
  }

  private static String keyText(TableShape shape, String row) {
    String col = row + "." + TableShape.quote(shape.keyColumn);
    return shape.binaryKey() ? "LOWER(HEX(" + col + "))" : "CONVERT(CAST(" + col + " AS CHAR) USING utf8mb4)";
  }

  /** A recorded primary-key column back as the copier binds it. */
  static Object value(Column c, String text) {
    return text != null && c.kind() == Kind.BYTES ? java.util.HexFormat.of().parseHex(text) : text;
  }

  private static String triggerName(String table, String event) {
    String name = "shardex_" + event + "_" + table.toLowerCase(Locale.ROOT);
    if (name.length() <= 64) {
      return name;
    }
    String hash = Integer.toHexString(table.hashCode());
    return name.substring(0, 64 - hash.length() - 1) + "_" + hash;
  }

  private static String literal(String s) {
    return "'" + s.replace("\\", "\\\\").replace("'", "''") + "'";
  }
}
