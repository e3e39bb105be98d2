package dev.shardex.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One benchmark thread's connections to one contender and the statements it runs on them. In
 * prepared-once mode each statement is prepared the first time a connection needs it and reused
 * (as a well-behaved application does); in fresh mode every operation prepares, runs and closes its
 * statement (as many applications and ORMs do). Both modes do identical work for all contenders:
 * the contender only decides which connection a statement goes to.
 */
public final class Session implements AutoCloseable {
  static final String[] SQL = {
    "SELECT user_id, name, email, visits FROM users WHERE user_id = ?",
    "INSERT INTO posts (post_id, user_id, created_at, views, title, body) VALUES (?, ?, ?, 0, ?, ?)",
    "UPDATE users SET visits = visits + 1 WHERE user_id = ?",
    "SELECT post_id, title, created_at FROM posts WHERE user_id = ? ORDER BY created_at DESC, post_id DESC LIMIT 10",
    "SELECT COUNT(*) FROM posts WHERE created_at >= ?"
  };
  static final int POINT = 0;
  static final int INSERT = 1;
  static final int UPDATE = 2;
  static final int TIMELINE = 3;
  static final int SCATTER = 4;

  /** Post ids for the insert workload, shared by every contender and thread so none collide. */
  private static final AtomicLong NEXT_POST = new AtomicLong(1L << 40);

  private final Contender contender;
  private final Connection[] connections;
  private final PreparedStatement[][] statements;
  private long scatters;

  public Session(Contender contender) throws SQLException {
    this.contender = contender;
    this.connections = contender.connect();
    this.statements = new PreparedStatement[connections.length][SQL.length];
  }

  public Contender contender() {
    return contender;
  }

  private PreparedStatement statement(int connection, int sql, boolean fresh) throws SQLException {
    if (fresh) {
      return connections[connection].prepareStatement(SQL[sql]);
    }
    PreparedStatement ps = statements[connection][sql];
    if (ps == null) {
      ps = connections[connection].prepareStatement(SQL[sql]);
      statements[connection][sql] = ps;
    }
    return ps;
  }

  private static void done(PreparedStatement ps, boolean fresh) throws SQLException {
    if (fresh) {
      ps.close();
    }
  }

  /** The user's row as text. */
  public String pointSelect(long user, boolean fresh) throws SQLException {
    PreparedStatement ps = statement(contender.route(user), POINT, fresh);
    try {
      ps.setLong(1, user);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getInt(4) : "none";
      }
    } finally {
      done(ps, fresh);
    }
  }

  /** Inserts a new post of the user, dated before every loaded post; returns the update count. */
  public int insert(long user, long postId, boolean fresh) throws SQLException {
    PreparedStatement ps = statement(contender.route(user), INSERT, fresh);
    try {
      ps.setLong(1, postId);
      ps.setLong(2, user);
      ps.setTimestamp(3, new Timestamp(BenchCluster.INSERTED_FROM_MS + (postId & 0xFFFFFFF) * 1000));
      ps.setString(4, "benchmark post " + postId);
      ps.setString(5, "inserted by the harness");
      return ps.executeUpdate();
    } finally {
      done(ps, fresh);
    }
  }

  public int insert(long user, boolean fresh) throws SQLException {
    return insert(user, NEXT_POST.incrementAndGet(), fresh);
  }

  public int update(long user, boolean fresh) throws SQLException {
    PreparedStatement ps = statement(contender.route(user), UPDATE, fresh);
    try {
      ps.setLong(1, user);
      return ps.executeUpdate();
    } finally {
      done(ps, fresh);
    }
  }

  /** The user's ten newest posts as text. */
  public String timeline(long user, boolean fresh) throws SQLException {
    PreparedStatement ps = statement(contender.route(user), TIMELINE, fresh);
    try {
      ps.setLong(1, user);
      StringBuilder out = new StringBuilder();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.append(rs.getLong(1)).append(',').append(rs.getString(2)).append(',')
              .append(rs.getTimestamp(3).getTime()).append(';');
        }
      }
      return out.toString();
    } finally {
      done(ps, fresh);
    }
  }

  /** COUNT(*) of the posts of the last two days of the loaded range (a non-key predicate). */
  public long scatterCount(boolean fresh) throws SQLException {
    return scatterCount(contender.scatter(scatters++), fresh);
  }

  /** The scatter COUNT on a chosen connection (the check runs it on every direct shard). */
  public long scatterCount(int connection, boolean fresh) throws SQLException {
    PreparedStatement ps = statement(connection, SCATTER, fresh);
    try {
      ps.setTimestamp(1, BenchCluster.SCATTER_SINCE);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } finally {
      done(ps, fresh);
    }
  }

  public int connectionCount() {
    return connections.length;
  }

  @Override
  public void close() throws SQLException {
    SQLException first = null;
    for (Connection c : connections) {
      try {
        c.close();
      } catch (SQLException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
