package dev.shardex.driver.route;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.shardex.directory.Directory;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the driver knows of a table's columns (in order, with their types) and of its PRIMARY and
 * UNIQUE keys, read from one shard's information_schema the first time a statement needs it (never
 * at start-up, so opening a driver costs nothing per table) and cached with the table's catalog
 * entry: when the directory reloads that entry (its change log said the table changed) the schema
 * is read again, and DDL through the driver drops it at once ({@link #forget}).
 */
public final class TableSchemas {
  /** A physical connection to a shard, closed by the caller. */
  @FunctionalInterface
  public interface Shards {
    Connection connect(int shard) throws SQLException;
  }

  /**
   * One column: its name (lower case), its type as information_schema prints it (e.g. bigint(20)),
   * and for text its collation (else null).
   */
  public record Column(String name, String type, boolean autoIncrement, String collation) {
    public Column(String name, String type) {
      this(name, type, false, null);
    }
  }

  /**
   * A table's columns in order and its unique keys (PRIMARY first), each a list of column names.
   * Empty when the table does not exist (yet) on the shard that was asked.
   */
  public record Schema(List<Column> columns, Map<String, List<String>> uniqueKeys) {
    public static final Schema UNKNOWN = new Schema(List.of(), Map.of());

    public boolean known() {
      return !columns.isEmpty();
    }

    /** The AUTO_INCREMENT column, or null (none, or the table is unknown). */
    public String autoIncrement() {
      for (Column c : columns) {
        if (c.autoIncrement()) {
          return c.name();
        }
      }
      return null;
    }

    public List<String> columnNames() {
      return columns.stream().map(Column::name).toList();
    }

    /** The name of the one-column unique key on the column ("PRIMARY", as MySQL names it), else the column's name. */
    public String uniqueKeyOn(String column) {
      for (Map.Entry<String, List<String>> k : uniqueKeys.entrySet()) {
        if (k.getValue().equals(List.of(column))) {
          return k.getKey();
        }
      }
      return column;
    }

    /** The first unique key that lacks the column, as "PRIMARY KEY (a, b)" / "UNIQUE KEY name (a)", or null. */
    public String keyWithout(String column) {
      return keyWithout(column, java.util.Set.of());
    }

    /** As above, but a one-column key on a column of {@code covered} (a unique lookup) is unique across shards. */
    public String keyWithout(String column, java.util.Set<String> covered) {
      for (Map.Entry<String, List<String>> k : uniqueKeys.entrySet()) {
        boolean global = k.getValue().size() == 1 && covered.contains(k.getValue().get(0));
        if (!k.getValue().contains(column) && !global) {
          String name = k.getKey().equals("PRIMARY") ? "PRIMARY KEY" : "UNIQUE KEY " + k.getKey();
          return name + " (" + String.join(", ", k.getValue()) + ")";
        }
      }
      return null;
    }
  }

  private record Entry(TableDef def, Schema schema) {}

  private final Directory directory;
  private final Shards shards;
  private final Cache<String, Entry> cache = Caffeine.newBuilder().maximumSize(100_000).build();
  /** Tables the catalog does not know, read from the home shard where they live. */
  private final Cache<String, Schema> uncatalogued = Caffeine.newBuilder().maximumSize(10_000).build();
  private final java.util.concurrent.atomic.AtomicLong loads = new java.util.concurrent.atomic.AtomicLong();

  public TableSchemas(Directory directory, Shards shards) {
    this.directory = directory;
    this.shards = shards;
  }

  /** The schema of a catalogued table, read on first use; UNKNOWN for tables the catalog does not know. */
  public Schema of(String table) throws SQLException {
    TableDef def = directory.table(table);
    if (def == null) {
      return Schema.UNKNOWN;
    }
    Entry e = cache.getIfPresent(def.name());
    if (e != null && sameEntry(e.def(), def)) {
      return e.schema(); // the same catalog entry: the directory has not reloaded it since
    }
    Schema s = load(def);
    cache.put(def.name(), new Entry(def, s));
    return s;
  }

  /**
   * The schema of any table: a catalogued one as {@link #of}, one the catalog does not know read
   * from the home shard, where such tables live (to tell an explicit id from a generated one).
   */
  public Schema ofAny(String table) throws SQLException {
    if (directory.table(table) != null) {
      return of(table);
    }
    String name = TableDef.normalise(table);
    Schema s = uncatalogued.getIfPresent(name);
    if (s == null) {
      s = load(TableDef.single(name, directory.homeShard()));
      uncatalogued.put(name, s);
    }
    return s;
  }

  /** Drops what is known of these tables (after DDL through the driver). */
  public void forget(List<String> tables) {
    for (String t : tables) {
      uncatalogued.invalidate(TableDef.normalise(t));
      cache.invalidate(TableDef.normalise(t));
    }
  }

  /** How many times a schema was read from a shard (for tests: lazy, once per catalog entry). */
  public long loads() {
    return loads.get();
  }

  private Schema load(TableDef def) throws SQLException {
    loads.incrementAndGet();
    int shard = def.kind() == TableKind.SINGLE && def.homeShard() != null ? def.homeShard() : directory.anyReadableShard();
    List<Column> columns = new ArrayList<>();
    Map<String, List<String>> keys = new LinkedHashMap<>();
    try (Connection c = shards.connect(shard)) {
      try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, COLUMN_TYPE, EXTRA, COLLATION_NAME FROM information_schema.COLUMNS"
          + " WHERE TABLE_SCHEMA = DATABASE() AND LOWER(TABLE_NAME) = ? ORDER BY ORDINAL_POSITION")) {
        ps.setString(1, def.name());
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            columns.add(new Column(rs.getString(1).toLowerCase(Locale.ROOT), rs.getString(2),
                String.valueOf(rs.getString(3)).toLowerCase(Locale.ROOT).contains("auto_increment"), rs.getString(4)));
          }
        }
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS"
          + " WHERE TABLE_SCHEMA = DATABASE() AND LOWER(TABLE_NAME) = ? AND NON_UNIQUE = 0"
          + " ORDER BY INDEX_NAME <> 'PRIMARY', INDEX_NAME, SEQ_IN_INDEX")) {
        ps.setString(1, def.name());
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            keys.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2).toLowerCase(Locale.ROOT));
          }
        }
      }
    }
    keys.replaceAll((k, v) -> List.copyOf(v));
    return new Schema(List.copyOf(columns), java.util.Collections.unmodifiableMap(keys));
  }

  /** The same catalog entry object: the directory has not reloaded the table's definition since. */
  @SuppressWarnings("ReferenceEquality")
  private static boolean sameEntry(Object a, Object b) {
    return a == b;
  }
}
