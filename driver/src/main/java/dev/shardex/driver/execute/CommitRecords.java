package dev.shardex.driver.execute;

import dev.shardex.directory.catalog.Shard;
import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.MysqlError;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The commit records of {@code atomic} transactions, kept on the transaction's first (origin)
 * shard in {@code shardex.llr_commits}: outcome 'C' is written inside the origin's own local
 * transaction, so it exists exactly when that transaction committed; outcome 'A' is a tombstone
 * recovery writes to abort a transaction whose origin never wrote its record (the primary key
 * makes the two race safely: whichever commits first decides, the other fails).
 */
final class CommitRecords {
  static final String TABLE = "shardex.llr_commits";
  private static final Set<String> READY = ConcurrentHashMap.newKeySet();
  /** Per origin URL: records of transactions whose branches all committed, deleted with the next record there. */
  private static final Map<String, Queue<String>> RESOLVED = new ConcurrentHashMap<>();

  private CommitRecords() {}

  /** Creates the table on a shard once per shard URL and JVM, on a connection of its own (DDL commits). */
  static void ensure(ShardPools pools, Shard shard) throws SQLException {
    if (READY.contains(shard.url())) {
      return;
    }
    try (Connection c = pools.borrow(shard); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE IF NOT EXISTS shardex");
      s.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (gtrid VARCHAR(64) NOT NULL PRIMARY KEY,"
          + " outcome CHAR(1) NOT NULL, branches VARCHAR(1000) NOT NULL DEFAULT '',"
          + " written_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)) ENGINE=InnoDB");
    }
    READY.add(shard.url());
  }

  /** Every branch of {@code gtrid} committed: its record may go (with the next one written on that origin). */
  static void resolved(Shard origin, String gtrid) {
    RESOLVED.computeIfAbsent(origin.url(), u -> new ConcurrentLinkedQueue<>()).add(gtrid);
  }

  /**
   * The commit record, written inside the origin's open local transaction; in the same round trip
   * it deletes the records of earlier transactions on this origin whose branches all committed.
   */
  static void writeCommit(Connection origin, Shard shard, String gtrid, Collection<Integer> branches)
      throws SQLException {
    List<String> done = new ArrayList<>();
    Queue<String> queue = RESOLVED.get(shard.url());
    for (String g; queue != null && done.size() < 50 && (g = queue.poll()) != null; ) {
      done.add(g);
    }
    StringBuilder sql = new StringBuilder("INSERT INTO " + TABLE + " (gtrid, outcome, branches) VALUES (?, 'C', ?)");
    if (!done.isEmpty()) {
      sql.append("; DELETE FROM ").append(TABLE).append(" WHERE gtrid IN (?").append(", ?".repeat(done.size() - 1)).append(')');
    }
    try (PreparedStatement ps = origin.prepareStatement(sql.toString())) {
      ps.setString(1, gtrid);
      ps.setString(2, branches.toString());
      for (int i = 0; i < done.size(); i++) {
        ps.setString(3 + i, done.get(i));
      }
      ps.execute();
      while (ps.getMoreResults() || ps.getUpdateCount() != -1) {
        // consume the DELETE's count
      }
    }
  }

  /** 'C', 'A' or null (no record: the origin has not committed, or has not yet). */
  static String outcome(Connection c, String gtrid) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT outcome FROM " + TABLE + " WHERE gtrid = ?")) {
      ps.setString(1, gtrid);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  /**
   * Decides a transaction with no commit record: writes the abort tombstone and returns 'A', or,
   * if the origin's transaction holds or committed its record, waits at most a second for it and
   * returns 'C' (committed) or null (still open: not decidable yet).
   */
  static String decide(Connection autocommit, String gtrid) throws SQLException {
    try (PreparedStatement ps = autocommit.prepareStatement("SET STATEMENT innodb_lock_wait_timeout=1 FOR "
        + "INSERT INTO " + TABLE + " (gtrid, outcome) VALUES (?, 'A')")) {
      ps.setString(1, gtrid);
      ps.executeUpdate();
      return "A";
    } catch (SQLIntegrityConstraintViolationException e) {
      return outcome(autocommit, gtrid);
    } catch (SQLException e) {
      if (ErrorKind.server(e) == MysqlError.LOCK_WAIT_TIMEOUT) { // the origin's transaction is writing its record
        return null;
      }
      throw e;
    }
  }

  /**
   * Deletes records whose branches are all resolved: those not in {@code unresolved} and older
   * than the recovery scan that proved it (commit records after a minute, tombstones after an
   * hour, so a stalled driver that wakes up still finds its transaction aborted).
   */
  static int clean(Connection c, Set<String> unresolved) throws SQLException {
    List<String> old = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT gtrid FROM " + TABLE
        + " WHERE (outcome = 'C' AND written_at < NOW(6) - INTERVAL 60 SECOND)"
        + " OR written_at < NOW(6) - INTERVAL 1 HOUR")) {
      while (rs.next()) {
        if (!unresolved.contains(rs.getString(1))) {
          old.add(rs.getString(1));
        }
      }
    }
    if (old.isEmpty()) {
      return 0;
    }
    try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + TABLE + " WHERE gtrid = ?")) {
      for (String g : old) {
        ps.setString(1, g);
        ps.addBatch();
      }
      ps.executeBatch();
    }
    return old.size();
  }

  /** Whether the shard has the table at all (recovery skips cleaning shards that never had one). */
  static boolean exists(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'shardex' AND TABLE_NAME = 'llr_commits'")) {
      return rs.next();
    }
  }
}
