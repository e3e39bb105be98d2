package dev.shardex.driver.route;

import dev.shardex.directory.Lookup;
import dev.shardex.directory.ShardexError;
import dev.shardex.directory.TableDef;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.StatementType;
import dev.shardex.driver.sql.ValueSource;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a write to a table with lookup indexes must do to them, found while routing it and done
 * around its execution (the driver's LookupWrites). An INSERT carries each row's key, shard and
 * looked-up values; an UPDATE or DELETE the lookups it touches (every one for a DELETE, the
 * assigned ones for an UPDATE) and an UPDATE's new values. A row's old values are read on its
 * shard when the statement runs, by the statement's own WHERE.
 */
public record LookupWork(StatementType type, TableDef table, List<Lookup> lookups, Object[] keys, int[] shards,
    Object[][] rowValues, Object[] newValues, boolean ignore) {

  /** An INSERT's rows: {@code keys[r]} and {@code shards[r]} of row r, {@code rowValues[r][i]} for {@code lookups[i]}. */
  static LookupWork insert(RouteTemplate t, TableDef def, List<Lookup> lookups, List<String> columns, Object[] values,
      RoutePlan.Fill fill, Object[] keys, int[] shards) throws SQLException {
    Object[][] rows = new Object[keys.length][];
    for (int r = 0; r < keys.length; r++) {
      rows[r] = new Object[lookups.size()];
      for (int i = 0; i < lookups.size(); i++) {
        rows[r][i] = insertedValue(t, def, lookups.get(i), columns, values, fill, r);
      }
    }
    return new LookupWork(t.type(), def, lookups, keys, shards, rows, null, t.insertIgnore());
  }

  private static Object insertedValue(RouteTemplate t, TableDef def, Lookup l, List<String> columns, Object[] values,
      RoutePlan.Fill fill, int r) throws SQLException {
    boolean filled = fill != null && fill.column().equals(l.column()) && fill.ids()[r] != RoutePlan.Fill.KEEP;
    int at = columns.indexOf(l.column());
    if (filled) {
      return fill.ids()[r];
    }
    if (at < 0) {
      throw ShardexError.LOOKUP_VALUE.exception("INSERT", def.name(), l.column(), "no value", l.column(),
          "give " + l.column() + " in the INSERT (or make it the table's sequence-filled column)");
    }
    return given(t.insertRows().get(r).get(at), values, def, l, "INSERT");
  }

  /** An UPDATE's or DELETE's lookups to keep; null when it touches none (an UPDATE of other columns). */
  static LookupWork change(RouteTemplate t, TableDef def, List<Lookup> all, Object[] values) throws SQLException {
    List<Lookup> touched = new ArrayList<>();
    List<Object> next = new ArrayList<>();
    for (Lookup l : all) {
      ValueSource set = t.assignments().get(l.column());
      if (t.type() == StatementType.DELETE || set != null) {
        touched.add(l);
        next.add(set == null ? null : given(set, values, def, l, "UPDATE"));
      }
    }
    return touched.isEmpty() ? null
        : new LookupWork(t.type(), def, List.copyOf(touched), null, null, null, next.toArray(), false);
  }

  private static Object given(ValueSource v, Object[] values, TableDef def, Lookup l, String verb) throws SQLException {
    if (v instanceof ValueSource.Opaque o) {
      throw ShardexError.LOOKUP_VALUE.exception(verb, def.name(), l.column(), "as an expression ('" + o.text() + "')",
          l.column(), "give " + l.column() + " as a literal or a ? parameter");
    }
    return Router.valueOf(v, values, def.name(), l.column());
  }

  /** The columns a row's old values are read from: the lookups' and the shard key. */
  public List<String> readColumns() {
    List<String> cols = new ArrayList<>();
    lookups.forEach(l -> cols.add(l.column()));
    cols.add(table.keyColumn());
    return cols;
  }
}
