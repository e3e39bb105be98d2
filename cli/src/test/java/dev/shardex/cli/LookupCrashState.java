package dev.shardex.cli;

import dev.shardex.directory.move.TestCluster;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rows of {@code lc_pets} on the shards and the entries of its two lookups ({@code id} unique,
 * {@code tag} not) in the directory, read straight from the servers, and what the entries should be.
 */
record LookupCrashState(TreeMap<Long, Row> rows, Set<Entry> entries) {
  record Row(long id, long owner, String tag) {}

  /** An entry of lookup {@code column}: value {@code v} names key {@code k}. */
  record Entry(String column, String v, String k) {
    @Override
    public String toString() {
      return column + " '" + v + "' -> " + k;
    }
  }

  static LookupCrashState read() throws SQLException {
    TreeMap<Long, Row> rows = new TreeMap<>();
    for (int shard = 0; shard < 3; shard++) {
      for (String r : TestCluster.rows(shard, "SELECT id, owner_id, tag FROM lc_pets")) {
        String[] cells = r.split("\\|");
        Row row = new Row(Long.parseLong(cells[0]), Long.parseLong(cells[1]), cells[2]);
        if (rows.put(row.id(), row) != null) {
          throw new AssertionError("pet " + row.id() + " is on two shards");
        }
      }
    }
    Set<Entry> entries = new HashSet<>();
    try (Connection c = TestCluster.pool().getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT i.column_name, e.v, e.k FROM lookup_unique e JOIN lookup_indexes i ON i.id = e.index_id"
            + " WHERE i.table_name = 'lc_pets' UNION ALL SELECT i.column_name, e.v, e.k FROM lookup_multi e"
            + " JOIN lookup_indexes i ON i.id = e.index_id WHERE i.table_name = 'lc_pets'")) {
      while (rs.next()) {
        entries.add(new Entry(rs.getString(1), rs.getString(2), rs.getString(3)));
      }
    }
    return new LookupCrashState(rows, entries);
  }

  /** The entries the rows need: each row's id and tag naming its owner. */
  static Set<Entry> wanted(Collection<Row> rows) {
    Set<Entry> wanted = new HashSet<>();
    for (Row r : rows) {
      wanted.add(new Entry("id", Long.toString(r.id()), Long.toString(r.owner())));
      wanted.add(new Entry("tag", r.tag(), Long.toString(r.owner())));
    }
    return wanted;
  }

  /** Rows without an entry naming their key. */
  Set<Entry> missing() {
    Set<Entry> missing = wanted(rows.values());
    missing.removeAll(entries);
    return missing;
  }

  /** Entries no row needs: their row is gone. */
  Set<Entry> extras() {
    Set<Entry> extras = new HashSet<>(entries);
    extras.removeAll(wanted(rows.values()));
    return extras;
  }
}
