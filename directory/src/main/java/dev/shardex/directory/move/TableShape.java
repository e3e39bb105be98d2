package dev.shardex.directory.move;

import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One table as the mover reads and writes it, from the shard's information_schema: the columns it
 * copies (generated columns are left to the server), how each is read so that both shards produce
 * the same bytes, and the primary-key order that makes checksums comparable.
 *
 * <p>Why three ways to read a column: binary columns travel as bytes; character columns as
 * strings (Connector/J converts charsets); everything else (numbers, dates, JSON) as the server's
 * own {@code CAST(... AS CHAR)} text, which re-parses to the same value, so no Java type mapping
 * (time zones, fractional seconds, unsigned, BIT) can alter a row on its way across.
 */
final class TableShape {
  enum Kind { BYTES, TEXT, CAST }

  record Column(String name, Kind kind) {}

  private static final Set<String> BINARY = Set.of("binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob",
      "bit", "geometry", "point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon",
      "geometrycollection", "geomcollection");
  private static final Set<String> CHARACTER = Set.of("char", "varchar", "tinytext", "text", "mediumtext", "longtext",
      "enum", "set");

  /** Text a CAST column may be bound as a number: then MySQL compares it exactly, not as a double. */
  private static final java.util.regex.Pattern DECIMAL = java.util.regex.Pattern.compile("-?\\d+(\\.\\d+)?");

  final String table;
  final String keyColumn;
  final List<Column> columns;
  /**
   * Indexes into {@link #columns} of the primary key's columns, or null when rows cannot be told
   * apart by a copied primary key (no primary key, or one with a generated column).
   */
  final int[] primaryKey;
  /**
   * Whether the primary key's text is the same in every session (no TIMESTAMP, whose text follows
   * the session's time zone, and no FLOAT/DOUBLE, which may not match as bound): then a trigger's
   * record of it binds back exactly ({@link ChangeCapture}).
   */
  final boolean primaryKeyTextStable;
  private final List<String> order;
  private final boolean binaryKey;

  private TableShape(String table, String keyColumn, List<Column> columns, List<String> order, boolean binaryKey,
      int[] primaryKey, boolean primaryKeyTextStable) {
    this.primaryKeyTextStable = primaryKeyTextStable;
    this.table = table;
    this.keyColumn = keyColumn;
    this.columns = columns;
    this.order = order;
    this.binaryKey = binaryKey;
    this.primaryKey = primaryKey;
  }

  static TableShape load(Connection c, String table, String keyColumn, int shard) throws SQLException {
    List<Column> columns = new ArrayList<>();
    java.util.Map<String, String> types = new java.util.HashMap<>();
    boolean binaryKey = false;
    try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, EXTRA FROM information_schema.COLUMNS "
        + "WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String name = rs.getString(1);
          String type = rs.getString(2).toLowerCase(Locale.ROOT);
          String extra = rs.getString(3) == null ? "" : rs.getString(3).toUpperCase(Locale.ROOT);
          types.put(name.toLowerCase(Locale.ROOT), type);
          if (keyColumn != null && name.equalsIgnoreCase(keyColumn)) {
            binaryKey = type.equals("binary") || type.equals("varbinary");
          }
          if (!extra.contains("GENERATED")) {
            columns.add(new Column(name, BINARY.contains(type) ? Kind.BYTES : CHARACTER.contains(type) ? Kind.TEXT : Kind.CAST));
          }
        }
      }
    }
    if (columns.isEmpty()) {
      throw ShardexError.DIRECTORY_STATE.exception("table " + table + " is in the catalog but does not exist on shard "
          + shard + "; create it there (DDL through the driver reaches every shard)");
    }
    List<String> order = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME FROM information_schema.STATISTICS "
        + "WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME = 'PRIMARY' ORDER BY SEQ_IN_INDEX")) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          order.add(rs.getString(1));
        }
      }
    }
    int[] primaryKey = primaryKey(columns, order);
    boolean stable = order.stream().map(col -> types.get(col.toLowerCase(Locale.ROOT)))
        .noneMatch(t -> Set.of("timestamp", "float", "double", "real").contains(t));
    if (order.isEmpty()) { // no primary key: every column orders the rows (ties are then identical rows)
      columns.forEach(col -> order.add(col.name()));
    }
    return new TableShape(table, keyColumn, List.copyOf(columns), List.copyOf(order), binaryKey, primaryKey, stable);
  }

  private static int[] primaryKey(List<Column> columns, List<String> pk) {
    if (pk.isEmpty()) {
      return null;
    }
    int[] at = new int[pk.size()];
    for (int i = 0; i < at.length; i++) {
      at[i] = -1;
      for (int j = 0; j < columns.size(); j++) {
        if (columns.get(j).name().equalsIgnoreCase(pk.get(i))) {
          at[i] = j;
        }
      }
      if (at[i] < 0) {
        return null; // a generated primary-key column: not copied, so not usable to match rows
      }
    }
    return at;
  }

  static String quote(String identifier) {
    return "`" + identifier.replace("`", "``") + "`";
  }

  private String select() {
    return selectColumns() + " FROM " + quote(table);
  }

  private String selectColumns() {
    return columns.stream().map(c -> c.kind() == Kind.CAST ? "CAST(" + quote(c.name()) + " AS CHAR)" : quote(c.name()))
        .collect(Collectors.joining(", ", "SELECT ", ""));
  }

  private String keyPredicate() {
    return " WHERE " + quote(keyColumn) + (binaryKey ? " = UNHEX(?)" : " = ?");
  }

  private String orderBy() {
    return order.stream().map(TableShape::quote).collect(Collectors.joining(", ", " ORDER BY ", ""));
  }

  /** The key's rows in primary-key order; {@code forUpdate} locks them (and, with an index on the key, the gap). */
  String selectKey(boolean forUpdate) {
    return select() + keyPredicate() + orderBy() + (forUpdate ? " FOR UPDATE" : "");
  }

  /**
   * Locks the key's rows without reading them in order: with no ORDER BY the optimizer can use the
   * index on the key, so only the key's rows are locked (an ordered locking read may scan the
   * primary key and lock every row of the table).
   */
  String lockKey() {
    return "SELECT 1 FROM " + quote(table) + keyPredicate() + " FOR UPDATE";
  }

  /**
   * Locks {@code rows} of the key's rows by primary key (bind the key, then each row's primary-key
   * values): a primary-key lookup locks those rows only, whatever share of the table the key holds.
   */
  String lockRows(int rows) {
    return "SELECT 1" + byPrimaryKey() + keyPredicate() + " AND " + primaryKeyIn(rows) + " FOR UPDATE";
  }

  /** The key's primary-key values in primary-key order (a plain, non-locking read). */
  String selectPrimaryKeys() {
    return primaryKeyColumns() + " FROM " + quote(table) + keyPredicate() + orderBy();
  }

  /**
   * {@link #selectPrimaryKeys} after a given primary key (bind the key, then that value), for a
   * single-column primary key; null for a composite one.
   */
  String selectPrimaryKeysAfter() {
    if (primaryKey.length != 1) {
      return null;
    }
    Column pk = columns.get(primaryKey[0]);
    return "SELECT " + (pk.kind() == Kind.CAST ? "CAST(" + quote(pk.name()) + " AS CHAR)" : quote(pk.name())) + " FROM "
        + quote(table) + keyPredicate() + " AND " + quote(pk.name()) + " > ?" + orderBy();
  }

  /**
   * The table read by primary key. Forced: with the key predicate beside the primary-key list, the
   * optimizer may pick the key's index instead (measured on MariaDB 10.11 right after a million rows
   * of one user were copied in: {@code ref} on the key index, ~50,000 rows estimated, so every
   * by-primary-key read or delete of a batch walked the whole user), which made the catch-up of a
   * large user slower than its writers.
   */
  private String byPrimaryKey() {
    return " FROM " + quote(table) + " FORCE INDEX (PRIMARY)";
  }

  /** {@code rows} of the key's rows by primary key (bind the key, then each row's primary-key values). */
  String selectRows(int rows) {
    return selectColumns() + byPrimaryKey() + keyPredicate() + " AND " + primaryKeyIn(rows);
  }

  /**
   * The key's row count and a 64-bit XOR of an MD5 per row (over every copied column, each
   * QUOTE()d so NULL and 'NULL' differ), computed by the server.
   */
  String digestKey() {
    return "SELECT COUNT(*), CAST(BIT_XOR(" + rowMd5() + ") AS CHAR) FROM " + quote(table) + keyPredicate();
  }

  /** One row's share of {@link #digestKey}: the first 64 bits of the MD5 over its QUOTE()d columns. */
  private String rowMd5() {
    String row = columns.stream().map(c -> "QUOTE(" + quote(c.name()) + ")").collect(Collectors.joining(", ", "CONCAT_WS(',', ", ")"));
    return "CAST(CONV(LEFT(MD5(" + row + "), 16), 16, 10) AS UNSIGNED)";
  }

  /** {@link #selectRows}, each row followed by its share of {@link #digestKey} (as text). */
  String selectRowsDigested(int rows) {
    return selectColumns() + ", CAST(" + rowMd5() + " AS CHAR)" + byPrimaryKey() + keyPredicate() + " AND " + primaryKeyIn(rows);
  }

  /**
   * The primary keys and digest shares of {@code rows} of the key's rows by primary key (bind the
   * key, then each row's primary-key values): what a delta needs of the rows it replaces.
   */
  String selectSharesByPrimaryKey(int rows) {
    return primaryKeyColumns() + ", CAST(" + rowMd5() + " AS CHAR)" + byPrimaryKey() + keyPredicate() + " AND " + primaryKeyIn(rows);
  }

  private String primaryKeyColumns() {
    return Arrays.stream(primaryKey).mapToObj(i -> columns.get(i))
        .map(c -> c.kind() == Kind.CAST ? "CAST(" + quote(c.name()) + " AS CHAR)" : quote(c.name()))
        .collect(Collectors.joining(", ", "SELECT ", ""));
  }

  boolean binaryKey() {
    return binaryKey;
  }

  String selectAll() {
    return select() + orderBy();
  }

  String countKey() {
    return "SELECT COUNT(*) FROM " + quote(table) + keyPredicate();
  }

  String deleteKey() {
    return "DELETE FROM " + quote(table) + keyPredicate();
  }

  /**
   * Deletes {@code rows} of the key's rows by primary key in one statement (bind the key, then each
   * row's primary-key values in order): {@code pk IN (...)}, or {@code (a, b) IN ((...), ...)}.
   */
  String deleteRows(int rows) {
    // the multiple-table form: MariaDB takes an index hint only there
    return "DELETE " + quote(table) + byPrimaryKey() + keyPredicate() + " AND " + primaryKeyIn(rows);
  }

  /**
   * Deletes one row by primary-key equality (bind its primary-key values): always a unique lookup,
   * so no other row is locked (an IN list may be planned as a scan of a small table, which waits
   * for every row another transaction holds).
   */
  String deleteOneRow() {
    return "DELETE FROM " + quote(table) + " WHERE " + primaryKeyIn(1);
  }

  private String primaryKeyIn(int rows) {
    String one = primaryKey.length == 1 ? "?" : Arrays.stream(primaryKey).mapToObj(i -> "?").collect(Collectors.joining(", ", "(", ")"));
    String columnList = Arrays.stream(primaryKey).mapToObj(i -> quote(columns.get(i).name())).collect(Collectors.joining(", "));
    return (primaryKey.length == 1 ? columnList : "(" + columnList + ")")
        + " IN (" + String.join(", ", java.util.Collections.nCopies(rows, one)) + ")";
  }

  /**
   * Binds a primary-key value for an equality match. A number read as the server's text is bound
   * as a decimal: compared with a string, MySQL would compare as doubles (inexact past 2^53). Any
   * other imprecision can only make a match fail, which the callers detect (row counts, checksums).
   */
  void bindPrimaryKey(PreparedStatement ps, int index, int column, Object value) throws SQLException {
    if (value == null) {
      ps.setNull(index, java.sql.Types.VARCHAR); // matches nothing: the caller's check then fails safe
    } else if (value instanceof byte[] b) {
      ps.setBytes(index, b);
    } else if (columns.get(column).kind() == Kind.CAST && DECIMAL.matcher((String) value).matches()) {
      ps.setBigDecimal(index, new java.math.BigDecimal((String) value));
    } else {
      ps.setString(index, (String) value);
    }
  }

  String insert() {
    return columns.stream().map(c -> quote(c.name())).collect(Collectors.joining(", ", "INSERT INTO " + quote(table) + " (", ") VALUES ("))
        + columns.stream().map(c -> "?").collect(Collectors.joining(", ")) + ")";
  }

  /** The key column as text the way the key map spells it (binary keys in lower-case hex). */
  String keyText() {
    return binaryKey ? "LOWER(HEX(" + quote(keyColumn) + "))" : quote(keyColumn);
  }

  /** Rows per key on this shard: the key as the key map spells it, and its row count. */
  String countPerKey() {
    return "SELECT " + keyText() + ", COUNT(*) FROM " + quote(table) + " GROUP BY " + quote(keyColumn);
  }

  /** Rows per key of {@code keys} keys bound in turn (those without rows are left out). */
  String countPerKeyIn(int keys) {
    String mark = binaryKey ? "UNHEX(?)" : "?";
    return "SELECT " + keyText() + ", COUNT(*) FROM " + quote(table) + " WHERE " + quote(keyColumn) + " IN ("
        + String.join(", ", java.util.Collections.nCopies(keys, mark)) + ") GROUP BY " + quote(keyColumn);
  }

  static void bindKey(PreparedStatement ps, int index, KeyType type, String key) throws SQLException {
    if (type == KeyType.BIGINT) {
      ps.setLong(index, Long.parseLong(key));
    } else {
      ps.setString(index, key);
    }
  }
}
