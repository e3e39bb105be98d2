package dev.shardex.directory.change;

import dev.shardex.directory.DirectoryStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The change log in the directory database ({@code change_counter}, {@code changes}): the numbered
 * list of catalog and key-map changes that drivers poll ({@link ChangePoller}). Appends run inside the
 * caller's transaction, so a change is logged exactly when it commits; the counter's row lock orders
 * the commits.
 */
public final class ChangeLog {
  private final DirectoryStore store;

  public ChangeLog(DirectoryStore store) {
    this.store = store;
  }

  /**
   * Appends a change inside the caller's transaction; the counter row lock orders commits. The new
   * id comes back in the UPDATE's own answer (LAST_INSERT_ID(expr) sets the OK packet's insert id,
   * which JDBC returns as its generated key): no SELECT LAST_INSERT_ID() round trip.
   */
  public static long append(Connection c, Change.Kind kind, String keySpace, String key, String ref) throws SQLException {
    long id;
    try (Statement s = c.createStatement()) {
      s.executeUpdate("UPDATE change_counter SET last_change = LAST_INSERT_ID(last_change + 1) WHERE id = 1",
          Statement.RETURN_GENERATED_KEYS);
      id = counted(s);
    }
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO changes (id, kind, keyspace, k, ref) VALUES (?, ?, ?, ?, ?)")) {
      ps.setLong(1, id);
      ps.setString(2, kind.name());
      ps.setString(3, keySpace);
      ps.setString(4, key);
      ps.setString(5, ref);
      ps.executeUpdate();
    }
    return id;
  }

  /** The counter's new value: the UPDATE's generated key, else (a driver that does not report it) read back. */
  private static long counted(Statement s) throws SQLException {
    try (ResultSet keys = s.getGeneratedKeys()) {
      if (keys.next() && keys.getLong(1) > 0) {
        return keys.getLong(1);
      }
    }
    try (ResultSet rs = s.executeQuery("SELECT LAST_INSERT_ID()")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  public long lastChange() throws SQLException {
    return store.query("SELECT last_change FROM change_counter WHERE id = 1", ps -> {}, rs -> rs.getLong(1)).get(0);
  }

  public List<Change> changesSince(long after, int limit) throws SQLException {
    return store.query("SELECT id, kind, keyspace, k, ref FROM changes WHERE id > ? ORDER BY id LIMIT ?", ps -> {
      ps.setLong(1, after);
      ps.setInt(2, limit);
    }, rs -> new Change(rs.getLong(1), Change.Kind.valueOf(rs.getString(2)), rs.getString(3), rs.getString(4), rs.getString(5)));
  }
}
