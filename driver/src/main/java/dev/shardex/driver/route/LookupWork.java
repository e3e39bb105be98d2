package dev.shardex.driver.route;

import dev.shardex.directory.lookup.Lookup;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.StatementType;
import dev.shardex.driver.sql.ValueSource;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a write to a table with lookup indexes must do to them, found while routing it and done
 * around its execution (the driver's LookupWrites). An INSERT carries each row's key, shard and
 * looked-up values; an UPDATE or DELETE the lookups it touches (every one for a DELETE, the
 * assigned ones for an UPDATE) and an UPDATE's new values. A row's old values are read on its
 * shard when the statement runs, by the statement's own WHERE. A REPLACE or ON DUPLICATE KEY
 * UPDATE also carries {@code upsert} (null otherwise).
 */
public record LookupWork(StatementType type, TableDef table, List<Lookup> lookups, Object[] keys, int[] shards,
    Object[][] rowValues, Object[] newValues, Object newKey, boolean ignore, UpsertWork upsert) {
  /** An UPDATE's new value of a lookup it does not assign (it changes the row's key only). */
  public static final Object UNCHANGED = new Object() {
    @Override
    public String toString() {
      return "UNCHANGED";
    }
  };

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
    return new LookupWork(t.type(), def, lookups, keys, shards, rows, null, null, t.insertIgnore(), null);
  }

  /** The same INSERT's rows, run as the REPLACE or ON DUPLICATE KEY UPDATE {@code u} describes. */
  LookupWork withUpsert(UpsertWork u) {
    return new LookupWork(type, table, lookups, keys, shards, rowValues, newValues, newKey, ignore, u);
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

  /**
   * An UPDATE's or DELETE's lookups to keep; null when it touches none (an UPDATE of other
   * columns). An UPDATE that assigns the shard key (to a key on the same shard: checked while
   * routing) touches every lookup, since every entry names the key.
   */
  static LookupWork change(RouteTemplate t, TableDef def, List<Lookup> all, Object[] values, KeyType keyType)
      throws SQLException {
    ValueSource keySet = t.type() == StatementType.UPDATE ? t.assignments().get(def.keyColumn()) : null;
    Object newKey = keySet == null ? null : keyType.canonical(Router.valueOf(keySet, values, def.name(), def.keyColumn()), def.name(), def.keyColumn());
    List<Lookup> touched = new ArrayList<>();
    List<Object> next = new ArrayList<>();
    for (Lookup l : all) {
      ValueSource set = t.assignments().get(l.column());
      if (t.type() == StatementType.DELETE || set != null || newKey != null) {
        touched.add(l);
        next.add(set == null ? UNCHANGED : given(set, values, def, l, "UPDATE"));
      }
    }
    return touched.isEmpty() ? null
        : new LookupWork(t.type(), def, List.copyOf(touched), null, null, null, next.toArray(), newKey, false, null);
  }

  /** A row's value of lookup {@code i} after this UPDATE, given its value before. */
  public Object after(int i, Object before) {
    return newValues[i] == UNCHANGED ? before : newValues[i];
  }

  /** A row's key after this UPDATE, given its key before, as the directory writes keys. */
  public String keyAfter(Object before) {
    return String.valueOf(newKey == null ? before : newKey);
  }

  private static Object given(ValueSource v, Object[] values, TableDef def, Lookup l, String verb) throws SQLException {
    if (v instanceof ValueSource.Opaque o) {
      // a plain statement's normalised text shows ? for its literals: quote only a text without them
      String how = o.text().contains("?") || o.text().isEmpty() ? "as an expression" : "as the expression '" + o.text() + "'";
      throw ShardexError.LOOKUP_VALUE.exception(verb, def.name(), l.column(), how,
          l.column(), "give " + l.column() + " as a literal or a ? parameter");
    }
    Object raw = Router.valueOf(v, values, def.name(), l.column());
    String text = dev.shardex.directory.lookup.LookupValue.of(raw);
    if (text != null && text.length() > dev.shardex.directory.lookup.LookupValue.MAX_CHARS) {
      throw ShardexError.LOOKUP_VALUE.exception(verb, def.name(), l.column(), "a value of " + text.length() + " characters",
          l.column(), "lookup values hold at most " + dev.shardex.directory.lookup.LookupValue.MAX_CHARS + " characters");
    }
    return raw;
  }

  /** The columns a row's old values are read from: the lookups' and the shard key. */
  public List<String> readColumns() {
    List<String> cols = new ArrayList<>();
    lookups.forEach(l -> cols.add(l.column()));
    cols.add(table.keyColumn());
    return cols;
  }

  /** The rows of lookup {@code i} to claim: each row with a value and not skipped, its value and its key, in row order. */
  public record Claimable(List<Integer> rows, List<String> values, List<String> keys) {}

  /** What lookup {@code i} claims for this write's rows, leaving out {@code skipped} ones and rows without a value. */
  public Claimable claimable(int i, java.util.Set<Integer> skipped) {
    List<Integer> rows = new ArrayList<>();
    List<String> vs = new ArrayList<>();
    List<String> ks = new ArrayList<>();
    for (int r = 0; r < keys.length; r++) {
      String v = dev.shardex.directory.lookup.LookupValue.of(rowValues()[r][i]);
      if (v != null && !skipped.contains(r)) {
        rows.add(r);
        vs.add(v);
        ks.add(keys[r].toString());
      }
    }
    return new Claimable(rows, vs, ks);
  }
}
