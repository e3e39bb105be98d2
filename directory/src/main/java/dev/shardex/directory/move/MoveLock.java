package dev.shardex.directory.move;

import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Who runs a move: a MySQL named lock ({@code GET_LOCK}) held on a directory connection for as
 * long as the move runs. The server releases it when that connection dies, so a crashed mover
 * never blocks a later {@code resume}, and two resumes of one move cannot interleave.
 */
final class MoveLock implements AutoCloseable {
  // Named locks are server-wide: the directory database's name keeps two directories apart.
  private static final String NAME = "CONCAT('shx_move_', LEFT(SHA1(DATABASE()), 16), '_', ?)";

  private final Connection connection;
  private final long moveId;

  private MoveLock(Connection connection, long moveId) {
    this.connection = connection;
    this.moveId = moveId;
  }

  static MoveLock acquire(DataSource directory, long moveId) throws SQLException {
    Connection c = directory.getConnection();
    try (PreparedStatement ps = c.prepareStatement("SELECT GET_LOCK(" + NAME + ", 0)")) {
      ps.setLong(1, moveId);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next() && rs.getInt(1) == 1) {
          return new MoveLock(c, moveId);
        }
      }
      throw ShardexError.MOVE_BUSY.exception(moveId);
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  @Override
  public void close() throws SQLException {
    try (Connection c = connection; PreparedStatement ps = c.prepareStatement("SELECT RELEASE_LOCK(" + NAME + ")")) {
      ps.setLong(1, moveId);
      ps.executeQuery().close();
    }
  }
}
