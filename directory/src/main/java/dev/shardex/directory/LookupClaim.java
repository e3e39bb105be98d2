package dev.shardex.directory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The pre-write of one statement's lookup entries: a directory transaction that adds the entries
 * and stays open while the owner rows are written on their shards, then commits (or rolls back
 * when the write failed, leaving no entry behind).
 *
 * <p>Why it stays open: the entry's row lock is held until the owner row is on its shard. Another
 * writer of the same unique value waits on that lock, then finds the entry, and probes the owner
 * row with a locking read, which waits for the owner's transaction if it is still open. So "the
 * entry exists but its row does not" is only ever seen for a row that is really gone (an orphan,
 * left by a rolled-back transaction or a crash), never for one about to be written. Vitess's
 * consistent lookups get the same from their Pre transaction committing after Main's insert.
 * A wait cycle through a shard and the directory (two transactions each inserting the value the
 * other claimed, in opposite orders) ends at the directory's innodb_lock_wait_timeout.
 */
public final class LookupClaim implements AutoCloseable {
  private final Connection c;
  /** Whether the connection came in autocommit (the directory pool's) and goes back so. */
  private final boolean restore;
  private boolean done;

  LookupClaim(Connection c) throws SQLException {
    this.c = c;
    this.restore = c.getAutoCommit();
    if (restore) {
      c.setAutoCommit(false);
    }
  }

  /** Opens a claim on a connection of the claims pool (see {@link ClaimPool}). */
  public static LookupClaim open(DirectoryStore store) throws SQLException {
    Connection c = store.claimConnection();
    try {
      return new LookupClaim(c);
    } catch (SQLException e) {
      c.close();
      throw e;
    }
  }

  /**
   * Adds every entry {@code vs[i] -> ks[i]} of one lookup, {@value #CHUNK} rows a statement (one
   * round trip for an INSERT's rows); returns the indexes of the values another key already holds
   * (unique lookups; none for non-unique ones).
   */
  public List<Integer> add(Lookup l, List<String> vs, List<String> ks) throws SQLException {
    int added = 0;
    for (int from = 0; from < vs.size(); from += CHUNK) {
      added += insertIgnore(l, vs, ks, from, Math.min(vs.size(), from + CHUNK));
    }
    return added == vs.size() || !l.unique() ? List.of() : held(l, vs, ks);
  }

  /**
   * Most entries one INSERT IGNORE adds: a batch's claim stays well inside max_allowed_packet, and
   * the statement texts (one per row count) stay few enough to keep prepared.
   */
  static final int CHUNK = 100;

  private int insertIgnore(Lookup l, List<String> vs, List<String> ks, int from, int to) throws SQLException {
    String rows = String.join(", ", java.util.Collections.nCopies(to - from, "(?, ?, ?)"));
    try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO " + table(l) + " (index_id, v, k) VALUES " + rows)) {
      for (int i = from; i < to; i++) {
        ps.setInt((i - from) * 3 + 1, l.id());
        ps.setString((i - from) * 3 + 2, vs.get(i));
        ps.setString((i - from) * 3 + 3, ks.get(i));
      }
      return ps.executeUpdate();
    }
  }

  private List<Integer> held(Lookup l, List<String> vs, List<String> ks) throws SQLException {
    List<Integer> clashes = new java.util.ArrayList<>();
    for (int i = 0; i < vs.size(); i++) {
      String holder = holder(l, vs.get(i));
      if (holder != null && !holder.equals(ks.get(i))) {
        clashes.add(i);
      }
    }
    return clashes;
  }

  /** The key that holds a unique value now, its entry locked until this claim ends; null if none. */
  public String holder(Lookup l, String v) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT k FROM lookup_unique WHERE index_id = ? AND v = ? FOR UPDATE")) {
      ps.setInt(1, l.id());
      ps.setString(2, v);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  /** Re-points an orphan entry (its owner row is gone) to {@code to}, logging a LOOKUP change. */
  public void repoint(Lookup l, String v, String to) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE lookup_unique SET k = ? WHERE index_id = ? AND v = ?")) {
      ps.setString(1, to);
      ps.setInt(2, l.id());
      ps.setString(3, v);
      ps.executeUpdate();
    }
    DirectoryStore.logChange(c, Change.Kind.LOOKUP, null, v, Integer.toString(l.id()));
  }

  /** Locks the entry {@code v -> k} until this claim ends; false when there is none. */
  public boolean lock(Lookup l, String v, String k) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM " + table(l) + " WHERE index_id = ? AND v = ? AND k = ? FOR UPDATE")) {
      ps.setInt(1, l.id());
      ps.setString(2, v);
      ps.setString(3, k);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  /** Deletes the entry {@code v -> k}; a unique one logs a LOOKUP change, so drivers drop it from their caches. */
  public void delete(Lookup l, String v, String k) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table(l) + " WHERE index_id = ? AND v = ? AND k = ?")) {
      ps.setInt(1, l.id());
      ps.setString(2, v);
      ps.setString(3, k);
      if (ps.executeUpdate() == 1 && l.unique()) {
        DirectoryStore.logChange(c, Change.Kind.LOOKUP, null, v, Integer.toString(l.id()));
      }
    }
  }

  private static String table(Lookup l) {
    return l.unique() ? "lookup_unique" : "lookup_multi";
  }

  /**
   * The owner rows are written: the entries become visible. On a directory pool connection,
   * switching autocommit back on commits (JDBC), one round trip for both, and the pool finds the
   * connection as it lent it.
   */
  public void commit() throws SQLException {
    done = true;
    if (restore) {
      c.setAutoCommit(true);
    } else {
      c.commit();
    }
  }

  /** Undoes everything the claim did so far (its locks go too) and goes on on the same connection. */
  public void restart() throws SQLException {
    c.rollback();
  }

  /** Ends the claim; entries not committed are rolled back. Never throws. */
  @Override
  public void close() {
    try {
      if (!done) {
        c.rollback();
      }
      if (!done && restore) {
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      // a broken directory connection rolls back on its own
    }
    try {
      c.close();
    } catch (SQLException e) {
      // the pool evicts it
    }
  }
}
