package dev.shardex.driver.execute;

import dev.shardex.directory.catalog.Replica;
import dev.shardex.vocabulary.ErrorKind;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One read on a replica ({@link ShardLease#onReplica}), and what it must wait for: this connection's
 * last write on the shard, when the replica is not known to have applied it. The wait goes in front
 * of the read in the same text, {@code SELECT MASTER_GTID_WAIT('pos', s);<query>}, one round trip
 * (the shard connections allow multi-statement texts); its first result says whether the replica got
 * there in time (0) or not (-1, NULL). A read that did not, or that failed on the replica for any
 * reason but the application's own cancel or timeout, runs again on the primary: a replica read is a
 * plain SELECT outside a transaction, so running it twice changes nothing.
 */
final class ReplicaWait {
  private final ReplicaReads reads;
  private final Replica replica;
  /** The GTID position to wait for, or null: nothing to wait for. */
  private final String position;
  private final String seconds;
  /** Whether the wait went out in front of the read (the call asked for the text through the lease). */
  private boolean sent;

  ReplicaWait(ReplicaReads reads, Replica replica, String position, String seconds) {
    this.reads = reads;
    this.replica = replica;
    this.position = position;
    this.seconds = seconds;
  }

  /** Whether the text must carry the wait (a prepared text so made is used once, not kept). */
  boolean waits() {
    return position != null;
  }

  /** The text the replica gets: the read, after the wait when there is one. */
  String text(String sql) {
    if (position == null) {
      return sql;
    }
    sent = true;
    return "SELECT MASTER_GTID_WAIT('" + position + "', " + seconds + ");" + sql;
  }

  /**
   * After the read ran: whether its rows may be used. With a wait, its result is read and the
   * statement moved on to the read's own result; false (counted) when the replica did not get there
   * in time, or when the wait never went out.
   */
  boolean caughtUp(Statement st) throws SQLException {
    if (position == null) {
      return true;
    }
    long got = -1;
    ResultSet first = sent ? st.getResultSet() : null;
    if (first != null && first.next()) {
      got = first.getLong(1);
      got = first.wasNull() ? -1 : got;
    }
    boolean rows = first != null && st.getMoreResults();
    if (got != 0 || !rows) {
      reads.waitFailed();
      return false;
    }
    reads.caughtUp(replica);
    return true;
  }

  /** The read failed on the replica: whether to run it on the primary instead (counted; a lost replica is marked down). */
  boolean retries(SQLException e) {
    if (ErrorKind.cancelled(e) || ErrorKind.queryTimedOut(e)) {
      return false;
    }
    reads.readFailed(replica, e);
    return true;
  }
}
