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

  ShardLease(ShardSession session, Shard shard, Connection connection, boolean pinned) {
    this.session = session;
    this.shard = shard;
    this.connection = connection;
    this.pinned = pinned;
    session.metrics().events().callStarted(session, shard, this, connection);
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
    slot = session.statements(connection).prepare(sql, generatedKeys);
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
      if (!pinned) {
        session.release(shard, connection, broken);
      }
    }
  }
}
