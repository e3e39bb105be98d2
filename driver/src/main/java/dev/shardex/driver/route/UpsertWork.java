package dev.shardex.driver.route;

import dev.shardex.directory.lookup.Lookup;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.ValueSource;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a REPLACE or INSERT ... ON DUPLICATE KEY UPDATE into a table with lookups needs when it runs
 * (the driver's LookupUpserts), found while routing it: every row's value of every column it gives
 * ({@code VALUES(col)}; the unique keys a row may collide with on its own shard), which lookups are
 * a one-column PRIMARY or UNIQUE key of the table ({@code keyed[i]}: a value another key holds is
 * then the collision MySQL would resolve, not a duplicate), the table's unique keys, its PRIMARY KEY
 * (MySQL checks it first, so an ON DUPLICATE KEY UPDATE updates the row it collides with there), its
 * AUTO_INCREMENT column (a row that leaves it out collides on it with nothing), what the ON
 * DUPLICATE KEY UPDATE sets the shard key to ({@code keySet}, null when it leaves it as it is) and
 * the columns it assigns.
 */
public record UpsertWork(boolean replace, List<String> columns, Object[][] cells, boolean[] keyed,
    List<List<String>> uniqueKeys, List<String> primaryKey, String autoIncrement, String keySet,
    java.util.Set<String> assigned) {
  /** A value the statement gives as an expression: known only once a shard computes it. */
  public static final Object EXPRESSION = marker("EXPRESSION");
  /** A column the statement does not give (the row gets its default). */
  public static final Object ABSENT = marker("ABSENT");

  /** Whether the statement is one this describes: REPLACE or ON DUPLICATE KEY UPDATE (not INSERT IGNORE). */
  static boolean wanted(RouteTemplate t) {
    String kind = t.upsertKind();
    return kind != null && !kind.equals("INSERT IGNORE");
  }

  static UpsertWork of(RouteTemplate t, TableDef def, List<Lookup> lookups, List<String> columns, Object[] values,
      RoutePlan.Fill fill, TableSchemas.Schema schema) throws SQLException {
    List<String> all = new ArrayList<>(columns);
    boolean added = fill != null && !all.contains(fill.column());
    if (added) {
      all.add(fill.column());
    }
    Object[][] cells = new Object[t.insertRows().size()][];
    for (int r = 0; r < cells.length; r++) {
      cells[r] = row(t.insertRows().get(r), all, values, def, fill, r);
    }
    boolean[] keyed = new boolean[lookups.size()];
    for (int i = 0; i < keyed.length; i++) {
      keyed[i] = schema.uniqueKeys().containsValue(List.of(lookups.get(i).column()));
    }
    ValueSource keySet = t.assignments().get(def.keyColumn());
    String changesKey = keySet == null || keeps(keySet, def.keyColumn(), def.name()) ? null : describe(keySet);
    return new UpsertWork(t.type() == dev.shardex.driver.sql.StatementType.REPLACE, List.copyOf(all), cells, keyed,
        List.copyOf(schema.uniqueKeys().values()), schema.uniqueKeys().getOrDefault("PRIMARY", List.of()),
        schema.autoIncrement(), changesKey, java.util.Set.copyOf(t.assignments().keySet()));
  }

  private static Object[] row(List<ValueSource> given, List<String> all, Object[] values, TableDef def, RoutePlan.Fill fill,
      int r) throws SQLException {
    Object[] row = new Object[all.size()];
    for (int c = 0; c < row.length; c++) {
      boolean filled = fill != null && fill.column().equals(all.get(c)) && fill.ids()[r] != RoutePlan.Fill.KEEP;
      ValueSource v = c < given.size() ? given.get(c) : null;
      row[c] = filled ? (Object) fill.ids()[r] : v == null ? ABSENT : v instanceof ValueSource.Opaque ? EXPRESSION
          : Router.valueOf(v, values, def.name(), all.get(c));
    }
    return row;
  }

  /** Row r's value of the column: a value, {@link #EXPRESSION} or {@link #ABSENT}. */
  public Object cell(int r, String column) {
    int at = columns.indexOf(column);
    return at < 0 ? ABSENT : cells[r][at];
  }

  /**
   * Whether an assignment leaves the column as the row has it: {@code col = col} or
   * {@code col = table.col} (not {@code VALUES(col)}, nor a row alias's {@code new.col}).
   */
  static boolean keeps(ValueSource set, String column, String table) {
    if (!(set instanceof ValueSource.Opaque o)) {
      return false;
    }
    String e = o.text().replace("`", "").replaceAll("\\s+", "").toLowerCase(Locale.ROOT);
    return e.equals(column) || e.equals(table + "." + column);
  }

  /** Whether an assignment is {@code col = VALUES(col)}. */
  static boolean insertedValue(ValueSource set, String column) {
    return set instanceof ValueSource.Opaque o
        && o.text().replace("`", "").replaceAll("\\s+", "").toLowerCase(Locale.ROOT).equals("values(" + column + ")");
  }

  private static String describe(ValueSource set) {
    return set instanceof ValueSource.Opaque o && !o.text().contains("?") && !o.text().isEmpty() ? "'" + o.text() + "'"
        : "a value";
  }

  private static Object marker(String name) {
    return new Object() {
      @Override
      public String toString() {
        return name;
      }
    };
  }
}
