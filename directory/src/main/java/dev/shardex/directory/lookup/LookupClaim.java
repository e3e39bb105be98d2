package dev.shardex.directory.lookup;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.change.Change;
import dev.shardex.directory.change.ChangeLog;
import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.MysqlError;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The pre-write of one statement's lookup entries, on a directory connection of its own, with the
 * advisory lock of every value it touches ({@link ValueLocks}) held until the claim ends.
 *
 * <p>The protocol (README "Lookup indexes"): lock the values, add their entries, write the rows on
 * their shards, release the locks. Why each step is where it is:
 *
 * <ul>
 *   <li><b>The entries commit before the rows</b>, so no committed row is ever without its entry;
 *       a driver dying in between leaves extra entries (orphans), which reads tolerate (they
 *       re-check the row), the next claimer of the value re-points and {@code shardex lookups
 *       verify --repair} deletes.
 *   <li><b>The value's lock is held until the rows are written</b>, so "the entry exists but its
 *       row does not" is only ever seen for a row that is really gone, never for one about to be
 *       written: a racing writer of the value waits for the lock, then finds the entry and probes
 *       the row with a locking read (which also waits for the holder's transaction, if the row is
 *       written but not committed). With the entry committed first and no lock (FriendFeed, a
 *       plain pre-insert), the racer would take a row about to be written for an orphan and both
 *       would insert. Every writer of entries locks the values first: claims, the release of a
 *       DELETE's or UPDATE's old entries ({@link #lock}), the CLI's build and repair.
 *   <li><b>Costs</b>: an {@linkplain #autocommit autocommit claim} of one value is one round trip,
 *       the {@code INSERT} that takes the lock, adds the entry and commits it
 *       ({@link #insertLocking}); the release runs after the claim ends, on the claims pool's own thread
 *       ({@link DirectoryStore#release}), not the caller's. Vitess's consistent lookups keep a
 *       transaction open instead (its Pre commits after Main's insert); so did this class before
 *       the locks, at five round trips where this takes two.
 * </ul>
 *
 * <p>A {@linkplain #open transaction claim} keeps its entry changes in a directory transaction
 * until {@link #commit} (rolled back when the claim ends uncommitted): an UPDATE's and an
 * upsert's, whose rules need to undo a claim. Its locks outlive the
 * commit until the claim ends, as in autocommit. A wait cycle through a shard and the directory
 * (two transactions each inserting the value the other claimed, in opposite orders) ends at the
 * directory's lock wait timeout.
 */
public final class LookupClaim implements AutoCloseable {
  private final DirectoryStore store;
  private final Connection c;
  /** Entry changes wait for {@link #commit} (true), or commit statement by statement. */
  private final boolean transaction;
  private final ValueLocks locks = new ValueLocks();
  /** Entries this claim's statements inserted (not those it found, nor orphans it re-pointed). */
  private int added;
  private boolean done;

  private LookupClaim(DirectoryStore store, Connection c, boolean transaction) throws SQLException {
    this.store = store;
    this.c = c;
    this.transaction = transaction;
    if (transaction) {
      c.setAutoCommit(false); // both directory pools lend connections in autocommit
    }
  }

  /** A transaction claim (see the class comment), on a connection of the claims pool ({@link ClaimPool}). */
  public static LookupClaim open(DirectoryStore store) throws SQLException {
    return open(store, true);
  }

  /** An autocommit claim: each entry change commits with its statement. */
  public static LookupClaim autocommit(DirectoryStore store) throws SQLException {
    return open(store, false);
  }

  private static LookupClaim open(DirectoryStore store, boolean transaction) throws SQLException {
    Connection c = store.claimConnection();
    try {
      return new LookupClaim(store, c, transaction);
    } catch (SQLException e) {
      c.close();
      throw e;
    }
  }

  /** Locks value {@code v} of lookup {@code l} with the claim's next statement (locks queued together are taken in order). */
  public void lock(Lookup l, String v) {
    locks.add(l, v);
  }

  /**
   * Whether every value lock queued so far is held: only then may the claim undo its entries (a
   * value whose lock another writer holds may have that writer's entry under the same key).
   */
  public boolean locked() {
    return locks.granted();
  }

  /** Takes the queued locks now, for work done on other connections while this claim is open (the CLI's backfill). */
  public void takeLocks() throws SQLException {
    locks.take(c);
  }

  /**
   * Adds every entry {@code vs[i] -> ks[i]} of one lookup, {@value #CHUNK} rows a statement (one
   * round trip for an INSERT's rows; a single row's statement also takes the queued locks: {@link
   * #insertLocking}); returns
   * the indexes of the values another key already holds (unique lookups; none for non-unique ones).
   */
  public List<Integer> add(Lookup l, List<String> vs, List<String> ks) throws SQLException {
    int added;
    if (vs.size() == 1 && locks.pending()) {
      added = insertLocking(l, vs.get(0), ks.get(0));
    } else {
      locks.take(c);
      added = 0;
      for (int from = 0; from < vs.size(); from += CHUNK) {
        added += insertIgnore(l, vs, ks, from, Math.min(vs.size(), from + CHUNK));
      }
    }
    this.added += added;
    return added == vs.size() || !l.unique() ? List.of() : held(l, vs, ks);
  }

  /** How many entries this claim inserted so far: with none, a failed write has nothing to undo. */
  public int added() {
    return added;
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

  /**
   * One entry, with the queued locks taken by the same statement: its {@code k} is computed as
   * "the key if every lock was granted, else NULL", and the server computes a row's values before
   * it looks for a duplicate, so the entry is checked and added under the locks; a lock not
   * granted makes k NULL, which the NOT NULL column refuses (1048). A plain INSERT, not INSERT
   * IGNORE (which would store an empty k instead), so an entry already there is MySQL's 1062,
   * counted here as "not added". Not {@code INSERT ... SELECT ... WHERE GET_LOCK(...)}: MariaDB
   * runs that at twice the cost of a VALUES insert.
   */
  private int insertLocking(Lookup l, String v, String k) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table(l) + " (index_id, v, k) VALUES (?, ?, IF("
        + locks.condition() + ", ?, NULL))")) {
      ps.setInt(1, l.id());
      ps.setString(2, v);
      ps.setString(locks.bind(ps, 3), k);
      int added = ps.executeUpdate();
      locks.grant();
      return added;
    } catch (SQLException e) {
      if (ErrorKind.server(e) == MysqlError.DUPLICATE_ENTRY) {
        locks.grant(); // k was computed, so every lock was granted
        return 0;
      }
      throw ErrorKind.server(e) == MysqlError.NOT_NULL ? locks.timedOut() : e;
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

  /** The key that holds a unique value now (its entry row-locked until a transaction claim ends); null if none. */
  public String holder(Lookup l, String v) throws SQLException {
    locks.take(c);
    try (PreparedStatement ps = c.prepareStatement("SELECT k FROM lookup_unique WHERE index_id = ? AND v = ? FOR UPDATE")) {
      ps.setInt(1, l.id());
      ps.setString(2, v);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  /** Re-points an orphan entry (its owner row is gone) to {@code to}, logging a LOOKUP change with it. */
  public void repoint(Lookup l, String v, String to) throws SQLException {
    locks.take(c);
    atomically(() -> {
      try (PreparedStatement ps = c.prepareStatement("UPDATE lookup_unique SET k = ? WHERE index_id = ? AND v = ?")) {
        ps.setString(1, to);
        ps.setInt(2, l.id());
        ps.setString(3, v);
        ps.executeUpdate();
      }
      ChangeLog.append(c, Change.Kind.LOOKUP, null, v, Integer.toString(l.id()));
    });
  }

  /** Locks value {@code v} (the advisory lock, then the entry {@code v -> k} until a transaction claim ends); false when there is no such entry. */
  public boolean lock(Lookup l, String v, String k) throws SQLException {
    locks.add(l, v);
    locks.take(c);
    try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM " + table(l) + " WHERE index_id = ? AND v = ? AND k = ? FOR UPDATE")) {
      ps.setInt(1, l.id());
      ps.setString(2, v);
      ps.setString(3, k);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  /** Deletes the entry {@code v -> k}; a unique one logs a LOOKUP change with it, so drivers drop it from their caches. */
  public void delete(Lookup l, String v, String k) throws SQLException {
    locks.take(c);
    atomically(() -> {
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table(l) + " WHERE index_id = ? AND v = ? AND k = ?")) {
        ps.setInt(1, l.id());
        ps.setString(2, v);
        ps.setString(3, k);
        if (ps.executeUpdate() == 1 && l.unique()) {
          ChangeLog.append(c, Change.Kind.LOOKUP, null, v, Integer.toString(l.id()));
        }
      }
    });
  }

  private static String table(Lookup l) {
    return l.unique() ? "lookup_unique" : "lookup_multi";
  }

  @FunctionalInterface
  private interface Step {
    void run() throws SQLException;
  }

  /** Runs the step in the claim's transaction, or in one of its own in autocommit (an entry and its change log go together). */
  private void atomically(Step step) throws SQLException {
    if (transaction) {
      step.run();
      return;
    }
    c.setAutoCommit(false);
    boolean ok = false;
    try {
      step.run();
      ok = true;
    } finally {
      if (!ok) {
        c.rollback();
      }
      c.setAutoCommit(true); // commits
    }
  }

  /**
   * A transaction claim's entries become visible (in autocommit they are already): switching
   * autocommit back on commits (JDBC), one round trip for both, and the pool finds the connection
   * as it lent it. The locks stay until the claim ends.
   */
  public void commit() throws SQLException {
    if (transaction && !done) {
      c.setAutoCommit(true);
    }
    done = true;
  }

  /** Ends the claim: entries not committed are rolled back, the locks released (off the caller's path). Never throws. */
  @Override
  public void close() {
    if (transaction && !done) {
      try {
        c.rollback();
        c.setAutoCommit(true);
      } catch (SQLException e) {
        // a broken directory connection rolls back on its own (and the release below evicts it)
      }
    }
    store.release(c, locks.held());
    locks.clear();
  }
}
