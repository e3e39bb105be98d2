package dev.shardex.driver.execute;

import dev.shardex.directory.catalog.Shard;
import dev.shardex.vocabulary.ErrorKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A physical connection lent for one statement, and the physical statement that runs on it
 * (kept per connection by {@link StatementCache}). Closing the lease gives the statement back
 * and the connection back to its pool, unless a transaction or a sticky session pins it to the
 * logical connection.
 */
public final class ShardLease implements AutoCloseable {
  private final ShardSession session;
  private final Shard shard;
  private final Connection connection;
  private final boolean pinned;
  /** Volatile: cancel() reads them from another thread. */
  private volatile StatementCache.Slot slot;
  private boolean failed;
  private boolean broken;
  private volatile boolean released;
  /** A replica's read: what it waits for (null on a primary's lease). */
  private ReplicaWait replica;
  /** A write's lease on a connection that reads replicas and its own writes: told the write's GTID at close. */
  private ReplicaReads tracker;

  ShardLease(ShardSession session, Shard shard, Connection connection, boolean pinned) {
    this.session = session;
    this.shard = shard;
    this.connection = connection;
    this.pinned = pinned;
    session.metrics().events().callStarted(session, shard, this, connection);
  }

  void onReplica(ReplicaWait wait) {
    this.replica = wait;
  }

  void tracks(ReplicaReads reads) {
    this.tracker = reads;
  }

  /** Whether this lease reads from a replica (its read may have to run again on the primary, see {@link ReplicaWait}). */
  public boolean onReplica() {
    return replica != null;
  }

  /** The text a plain statement sends: the call's own, or on a replica that must catch up first, the wait and then it. */
  public String sql(String text) {
    return replica == null ? text : replica.text(text);
  }

  /** After a replica's read ran: whether its result may be used (else it runs again on the primary). */
  public boolean caughtUp(Statement st) throws SQLException {
    return replica == null || replica.caughtUp(st);
  }

  /** A replica's read failed: whether to run it on the primary instead; the connection is not kept. */
  public boolean retriesOnPrimary(SQLException e) {
    if (replica == null || !replica.retries(e)) {
      return false;
    }
    failed = true;
    broken |= ErrorKind.of(e) == ErrorKind.CONNECTION_LOST;
    return true;
  }

  public Connection connection() {
    return connection;
  }

  public Shard shard() {
    return shard;
  }

  /** This lease's prepared statement for the text, reused from earlier executions on the connection. */
  public PreparedStatement prepare(String sql, boolean generatedKeys) throws SQLException {
    giveBack();
    if (replica != null && replica.waits()) {
      slot = session.statements(connection).once(replica.text(sql), generatedKeys); // its text names a position
    } else {
      slot = session.statements(connection).prepare(sql, generatedKeys);
    }
    return (PreparedStatement) slot.statement();
  }

  /** This lease's plain statement, reused from earlier executions on the connection. */
  public Statement statement() throws SQLException {
    giveBack();
    slot = session.statements(connection).plain();
    return slot.statement();
  }

  /**
   * Cancels the statement this lease runs (Connector/J's KILL QUERY), if it still runs it: a
   * statement given back to the cache may be running another execution's query by now.
   */
  public void cancel() throws SQLException {
    StatementCache.Slot s = slot;
    if (!released && s != null) {
      s.statement().cancel();
    }
  }

  /** An error from this shard, sorted: unreachable shards become SHX1401, the rest pass. */
  public SQLException translate(SQLException e) {
    failed = true; // a statement that failed is not kept: its connection may be broken
    broken |= ErrorKind.of(e) == ErrorKind.CONNECTION_LOST;
    SQLException named = session.translate(shard, e);
    session.metrics().events().callFailed(session, shard, this, named);
    return named;
  }

  private void giveBack() {
    StatementCache.Slot s = slot;
    if (s != null) {
      slot = null;
      s.owner.give(s, !failed);
    }
  }

  @Override
  public void close() throws SQLException {
    if (!released) {
      released = true;
      session.metrics().events().callEnded(session, shard, this);
      giveBack();
      if (tracker != null) {
        tracker.wrote(shard.id(), connection); // before the connection can serve anyone else
      }
      if (!pinned) {
        session.release(shard, connection, broken);
      }
    }
  }
}
