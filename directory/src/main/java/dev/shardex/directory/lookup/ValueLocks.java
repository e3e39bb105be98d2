package dev.shardex.directory.lookup;

import dev.shardex.vocabulary.MysqlError;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The advisory locks ({@code GET_LOCK}) of the lookup values one {@link LookupClaim} touches, one
 * per lookup and value, on the claim's directory connection.
 *
 * <p>Names: {@code shardex:<index id>:<SHA-1 of the value's collation weights>}, computed by the
 * directory itself ({@code WEIGHT_STRING} in {@code utf8mb4_general_ci}, trailing spaces trimmed as
 * that PAD SPACE collation compares), so two values the entry table takes for one ('Ann@x' and
 * 'ann@x ') share one lock, and every name fits MariaDB's 64 characters.
 *
 * <p>Order: the locks a claim needs are queued ({@link #add}) and taken together, sorted by lookup
 * and folded value, by the claim's next statement, before it touches an entry: folded into a
 * single-row claim's {@code INSERT} (no round trip of their own), else one {@code SELECT}.
 * Claims of the same values thus wait on each other in one order; a cycle that remains (values
 * whose folds differ in Java but not in the collation, or locks taken in two steps) is broken by
 * MariaDB's deadlock detection, which covers user locks (1213, SQLState 40001, retryable). A wait
 * ends at the directory's {@code innodb_lock_wait_timeout}, as the row lock it replaces did.
 *
 * <p>Locks are not transactional: a claim's commit or rollback keeps them; they go when the claim
 * ends ({@code RELEASE_ALL_LOCKS}, off the caller's path on the claims pool) or with the
 * connection, when its driver dies.
 */
final class ValueLocks {
  /** One value's lock: its name's inputs, and what sorts it. */
  private record Name(Lookup lookup, String v, String folded) {}

  private static final String NAME = "CONCAT('shardex:', ?, ':', SHA1(WEIGHT_STRING(TRIM(TRAILING ' ' FROM "
      + "CONVERT(? USING utf8mb4)) COLLATE utf8mb4_general_ci)))";
  private static final String GET = "GET_LOCK(" + NAME + ", @@innodb_lock_wait_timeout) = 1";
  private static final Comparator<Name> ORDER = Comparator.comparingInt((Name n) -> n.lookup().id())
      .thenComparing(Name::folded).thenComparing(Name::v);

  private final List<Name> pending = new ArrayList<>();
  private final List<Name> taken = new ArrayList<>();
  /** The locks the last statement that carried {@link #condition} asked for. */
  private List<Name> asked = List.of();

  /** Queues value {@code v} of lookup {@code l}: its lock is taken with the claim's next statement. */
  void add(Lookup l, String v) {
    pending.add(new Name(l, v, LookupValue.folded(v)));
  }

  /** Whether locks wait to be taken. */
  boolean pending() {
    return !pending.isEmpty();
  }

  /** Whether every lock asked for so far was granted (false from a statement that carried some until it succeeded). */
  private boolean granted = true;

  /** Whether every lock queued so far is this connection's now. */
  boolean granted() {
    return granted && pending.isEmpty();
  }

  /** The statement that carried {@link #condition} succeeded: its locks are granted. */
  void grant() {
    granted = true;
  }

  /** Whether this claim took any lock (its connection must release them). */
  boolean held() {
    return !taken.isEmpty();
  }

  /**
   * The condition that takes the queued locks in order, for a statement's WHERE; {@link #bind}
   * fills its parameters. The locks count as taken from here on (a failed statement may hold some).
   */
  String condition() {
    pending.sort(ORDER);
    return String.join(" AND ", java.util.Collections.nCopies(pending.size(), GET));
  }

  /** Binds the parameters of {@link #condition} from {@code at}; returns the next index. */
  int bind(PreparedStatement ps, int at) throws SQLException {
    for (Name n : pending) {
      ps.setInt(at++, n.lookup().id());
      ps.setString(at++, n.v());
    }
    asked = List.copyOf(pending);
    taken.addAll(pending);
    pending.clear();
    granted = false;
    return at;
  }

  /** The lock wait timeout of the last statement that carried {@link #condition} and found a lock not granted. */
  SQLException timedOut() {
    return timeout(asked);
  }

  /** Takes the queued locks with statements of their own ({@value #PER_STATEMENT} a statement, in order), if any are queued. */
  void take(Connection c) throws SQLException {
    if (pending.isEmpty()) {
      return;
    }
    pending.sort(ORDER);
    List<Name> asked = List.copyOf(pending);
    taken.addAll(asked);
    pending.clear();
    granted = false;
    for (int from = 0; from < asked.size(); from += PER_STATEMENT) {
      List<Name> part = asked.subList(from, Math.min(asked.size(), from + PER_STATEMENT));
      if (!query(c, "SELECT " + String.join(" AND ", java.util.Collections.nCopies(part.size(), GET)), part)) {
        throw timeout(part);
      }
    }
    granted = true;
  }

  /** Most locks one statement takes: a big batch's stay far inside the 65,535 parameters of a prepared statement. */
  static final int PER_STATEMENT = 500;

  /** Forgets the locks (taken ones are released by the caller: {@code RELEASE_ALL_LOCKS}). */
  void clear() {
    pending.clear();
    taken.clear();
  }

  /** Frees every lock the connection holds (it holds only this claim's). */
  static void release(Connection c) throws SQLException {
    try (var s = c.createStatement()) {
      s.execute("DO RELEASE_ALL_LOCKS()");
    }
  }

  private static boolean query(Connection c, String sql, List<Name> names) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int at = 1;
      for (Name n : names) {
        ps.setInt(at++, n.lookup().id());
        ps.setString(at++, n.v());
      }
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getInt(1) == 1;
      }
    }
  }

  /** MySQL's lock wait timeout (1205, 40001, retryable), naming the lookup whose value waited. */
  private static SQLException timeout(List<Name> names) {
    Lookup l = names.get(0).lookup();
    String values = names.stream().limit(3).map(n -> "'" + n.v() + "'").collect(java.util.stream.Collectors.joining(", "))
        + (names.size() > 3 ? ", ..." : "");
    return MysqlError.LOCK_WAIT_TIMEOUT.exception("Lock wait timeout exceeded; try restarting transaction (Shardex: lookup "
        + l.table() + "." + l.column() + ": another connection writing a row with one of the values " + values
        + " held its lookup lock past the directory's innodb_lock_wait_timeout; retry, or look for a long transaction)");
  }
}
