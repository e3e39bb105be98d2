package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.directory.lookup.Lookup;
import dev.shardex.directory.placement.Placement;
import dev.shardex.driver.route.UpsertWork;
import dev.shardex.driver.sql.UpsertUpdate;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The statements an upsert runs on the shards besides its own: the rows it collides with, read
 * (locked in the running transaction), deleted (REPLACE) or updated (ON DUPLICATE KEY UPDATE) on
 * the shard of their key, which is marked in flight like any keyed write; and the rows a REPLACE
 * replaces on its own shard, read so their entries can go once they are gone.
 */
final class UpsertShards {
  private final ShardSession session;
  private final Directory directory;
  /** The in-flight marks of the keys written here; the caller hands them to the transaction. */
  private final List<AutoCloseable> guards = new ArrayList<>();

  UpsertShards(ShardSession session, Directory directory) {
    this.session = session;
    this.directory = directory;
  }

  List<AutoCloseable> guards() {
    return guards;
  }

  /** The key as the table's key column holds it. */
  Object key(TableDef def, String k) throws SQLException {
    return directory.keySpace(def.keySpace()).keyType().canonical(k, def.name(), def.keyColumn());
  }

  /** The shard a key's rows are written on, the key marked in flight; null when the directory does not know the key. */
  Integer shardOf(TableDef def, Object key) throws SQLException {
    Placement p = directory.routeWrite(def.keySpace(), key, Directory.WriteMode.EXISTING, guards, session.heldGuards());
    return p == null ? null : p.shardId();
  }

  /** The lookup values and key of the row with {@code column = value} under the key, locked until the transaction ends; null if none. */
  Object[] lockRow(int shard, TableDef def, List<Lookup> lookups, String column, Object value, Object key)
      throws SQLException {
    String sql = "SELECT " + String.join(", ", columns(def, lookups).stream().map(UpsertShards::quote).toList()) + " FROM "
        + quote(def.name()) + " WHERE " + quote(column) + " = ? AND " + quote(def.keyColumn()) + " = ? FOR UPDATE";
    List<Object[]> rows = query(shard, true, sql, List.of(value, key), lookups.size() + 1);
    return rows.isEmpty() ? null : rows.get(0);
  }

  /** Deletes that row; returns how many went (1, or 0 when it is gone). */
  long delete(int shard, TableDef def, String column, Object value, Object key) throws SQLException {
    String sql = "DELETE FROM " + quote(def.name()) + " WHERE " + quote(column) + " = ? AND " + quote(def.keyColumn()) + " = ?";
    return run(shard, true, sql, List.of(value, key), PreparedStatement::executeLargeUpdate);
  }

  /**
   * Runs an ON DUPLICATE KEY UPDATE's assignments on the row it collides with; returns what MySQL
   * counts for that row: 2 when it changed, else what the UPDATE counts (1 found, with Connector/J's
   * default; 0 with {@code useAffectedRows=true}).
   */
  long update(int shard, UpsertUpdate u) throws SQLException {
    return run(shard, true, u.text(), u.binds(), ps -> {
      long found = ps.executeLargeUpdate();
      return changed(ps) > 0 ? 2L : found;
    });
  }

  /** "Rows matched: 1  Changed: 0  Warnings: 0", the server's report of an UPDATE: how many rows changed. */
  private static long changed(PreparedStatement ps) throws SQLException {
    String info = ps.unwrap(com.mysql.cj.jdbc.JdbcStatement.class).getResultSetInternal().getServerInfo();
    var m = info == null ? null : java.util.regex.Pattern.compile("Changed:\\s*(\\d+)").matcher(info);
    return m != null && m.find() ? Long.parseLong(m.group(1)) : 1;
  }

  /**
   * The {@code columns} of the rows {@code where} finds on a shard: locked in a transaction, plain
   * in autocommit (as an UPDATE's or DELETE's old values are read).
   */
  List<Object[]> rows(int shard, TableDef def, List<String> columns, String where, List<Object> binds) throws SQLException {
    boolean tx = !session.state().autoCommit();
    String sql = "SELECT " + String.join(", ", columns.stream().map(UpsertShards::quote).toList()) + " FROM "
        + quote(def.name()) + " WHERE " + where + (tx ? " FOR UPDATE" : "");
    return query(shard, tx, sql, binds, columns.size());
  }

  /** Whether {@code where} finds a row on the shard (locking it in the running transaction). */
  boolean any(int shard, TableDef def, String where, List<Object> binds) throws SQLException {
    boolean tx = !session.state().autoCommit();
    String sql = "SELECT 1 FROM " + quote(def.name()) + " WHERE " + where + " LIMIT 1" + (tx ? " FOR UPDATE" : "");
    return !query(shard, tx, sql, binds, 1).isEmpty();
  }

  private List<Object[]> query(int shard, boolean pin, String sql, List<Object> binds, int columns) throws SQLException {
    return run(shard, pin, sql, binds, ps -> LookupOwners.collect(ps, columns));
  }

  /** A statement's work on one shard's connection (pinned to the transaction when {@code pin}). */
  @FunctionalInterface
  private interface Use<T> {
    T apply(PreparedStatement ps) throws SQLException;
  }

  private <T> T run(int shard, boolean pin, String sql, List<Object> binds, Use<T> use) throws SQLException {
    try (ShardLease lease = session.acquire(shard, pin, pin || session.pins(shard))) {
      try (PreparedStatement ps = lease.connection().prepareStatement(sql)) {
        for (int i = 0; i < binds.size(); i++) {
          ps.setObject(i + 1, binds.get(i));
        }
        return use.apply(ps);
      } catch (SQLException e) {
        throw lease.translate(e);
      }
    }
  }

  /**
   * The rows of row {@code r}'s key that share a unique key's values with it (those it collides
   * with on its own shard): {@code (key = ? AND ((a = ? AND b = ?) OR c = ?))}, its values added to
   * {@code binds}; null when no key of the row has known values. A NULL collides with nothing, nor
   * does an AUTO_INCREMENT value the row leaves out. A value only a shard knows (an expression, or
   * a default) is skipped, or refused when {@code strict}.
   */
  static String match(UpsertWork u, TableDef def, int r, Object key, List<Object> binds, boolean strict, String verb)
      throws SQLException {
    return match(u, u.uniqueKeys(), def, r, key, binds, strict, verb);
  }

  /** As above, for the given unique keys of the table only. */
  static String match(UpsertWork u, List<List<String>> uniqueKeys, TableDef def, int r, Object key, List<Object> binds,
      boolean strict, String verb) throws SQLException {
    List<String> keys = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    for (List<String> uk : uniqueKeys) {
      List<Object> these = new ArrayList<>();
      for (String column : uk) {
        Object v = column.equals(def.keyColumn()) ? key : u.cell(r, column);
        boolean unknown = v == UpsertWork.EXPRESSION || v == UpsertWork.ABSENT && !column.equals(u.autoIncrement());
        if (unknown && strict) {
          throw ShardexError.UPSERT_LOOKUP.exception(verb, def.name(), "gives a row that collides with a row of another "
              + def.keyColumn() + " and gives " + column + (v == UpsertWork.ABSENT ? " no value" : " as an expression")
              + ", so Shardex cannot tell whether it also collides with a row of its own key", "give " + column
              + " as a literal or a ? parameter");
        }
        if (v == null || v == UpsertWork.EXPRESSION || v == UpsertWork.ABSENT) {
          these = null;
          break;
        }
        these.add(v);
      }
      if (these != null) {
        keys.add("(" + String.join(" AND ", uk.stream().map(c -> quote(c) + " = ?").toList()) + ")");
        values.addAll(these);
      }
    }
    if (keys.isEmpty()) {
      return null;
    }
    binds.add(key);
    binds.addAll(values);
    return "(" + quote(def.keyColumn()) + " = ? AND (" + String.join(" OR ", keys) + "))";
  }

  /** The lookups' columns and the shard key: what the entries of a row are made of. */
  static List<String> columns(TableDef def, List<Lookup> lookups) {
    List<String> columns = new ArrayList<>();
    lookups.forEach(l -> columns.add(l.column()));
    columns.add(def.keyColumn());
    return columns;
  }

  static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
