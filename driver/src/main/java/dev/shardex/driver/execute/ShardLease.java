package dev.shardex.driver.execute;

import dev.shardex.directory.Shard;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A physical connection lent for one statement. Closing it gives the connection back to its pool,
 * unless a transaction or a sticky session pins it to the logical connection.
 */
public final class ShardLease implements AutoCloseable {
  private final ShardSession session;
  private final Shard shard;
  private final Connection connection;
  private final boolean pinned;
  private boolean released;

  ShardLease(ShardSession session, Shard shard, Connection connection, boolean pinned) {
    this.session = session;
    this.shard = shard;
    this.connection = connection;
    this.pinned = pinned;
  }

  public Connection connection() {
    return connection;
  }

  public Shard shard() {
    return shard;
  }

  /** An error from this shard, sorted: unreachable shards become SHX1401, the rest pass. */
  public SQLException translate(SQLException e) {
    return session.translate(shard, e);
  }

  @Override
  public void close() throws SQLException {
    if (!released) {
      released = true;
      if (!pinned) {
        connection.close();
      }
    }
  }
}
