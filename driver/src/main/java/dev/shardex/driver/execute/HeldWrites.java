package dev.shardex.driver.execute;

import dev.shardex.driver.route.RoutePlan;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An autocommit write that claimed lookup entries, held uncommitted on its shards until the claim
 * allows the commit ({@link ShardSession#holdWrites}).
 *
 * <p>Why, for a write whose claim is a directory transaction (an UPDATE's, an upsert's, a batch's):
 * the claim must commit before the rows do. Committed the other way round (the shard's autocommit
 * first), a driver dying between the two commits leaves rows without their entries: a read by the
 * looked-up column misses them and a unique value could be inserted twice. Held, such a crash
 * rolls the rows back on the shards (their connections close) and leaves only extra entries, which
 * reads tolerate and {@code shardex lookups verify --repair} deletes.
 *
 * <p>An INSERT's claim commits its entries before the write (and holds the values' locks until
 * the rows are written, see {@link dev.shardex.directory.lookup.LookupClaim}), so its rows need no hold
 * for that: only rows over several shards are held, so that the statement applies on all or none,
 * as one server's would. A batch of INSERTs is held as before: one commit per shard instead of
 * one per entry. Inside a transaction the shards commit at the application's commit,
 * after the claim, already.
 *
 * <p>Cost: two round trips per shard written (autocommit off before the write, on after the
 * claim's commit, which commits).
 */
public final class HeldWrites implements AutoCloseable {
  /** Nothing to hold: a transaction's writes commit after the claim anyway. */
  static final HeldWrites NONE = new HeldWrites(null);

  private final ShardSession session;
  private final Map<Integer, ShardLease> leases = new TreeMap<>();
  private boolean committed;

  HeldWrites(ShardSession session) {
    this.session = session;
  }

  /**
   * Runs the write. A write that failed on some shards after others applied it (SHX1505) is rolled
   * back everywhere when this closes, so what it reports is the failing shard's own error, as one
   * server's statement rollback would.
   */
  public Outcome run(LookupWrites.Write write, RoutePlan plan) throws SQLException {
    try {
      return write.run(plan);
    } catch (SQLException e) {
      if (this != NONE && ShardexError.WRITE_PARTIAL.is(e) && e.getCause() instanceof SQLException shard) {
        throw shard;
      }
      throw e;
    }
  }

  /** The shard's connection for the write, taken from the session once and kept, its autocommit off. */
  ShardLease lease(int shardId, ShardLease own) throws SQLException {
    try {
      own.connection().setAutoCommit(false);
    } catch (SQLException e) {
      SQLException named = own.translate(e);
      own.close();
      throw named;
    }
    leases.put(shardId, own);
    return held(shardId);
  }

  /** A lease of a connection already held here, or null. */
  ShardLease held(int shardId) {
    ShardLease own = leases.get(shardId);
    return own == null ? null : new ShardLease(session, own.shard(), own.connection(), true);
  }

  /** After the claim's commit: commits the rows on every shard (autocommit back on commits). */
  public void commit() throws SQLException {
    if (this == NONE) {
      return;
    }
    committed = true;
    end(c -> c.setAutoCommit(true));
  }

  /** Rolls back what was not committed and gives the connections back. */
  @Override
  public void close() throws SQLException {
    if (this == NONE) {
      return;
    }
    session.unhold(this);
    if (!committed) {
      end(c -> {
        c.rollback();
        c.setAutoCommit(true);
      });
    }
  }

  private void end(ShardSession.ConnectionAction action) throws SQLException {
    List<SQLException> errors = new ArrayList<>();
    for (ShardLease own : leases.values()) {
      try {
        action.run(own.connection());
      } catch (SQLException e) {
        errors.add(own.translate(e)); // marks the connection broken when it is
      }
      try {
        own.close();
      } catch (SQLException e) {
        errors.add(e);
      }
    }
    leases.clear();
    if (!errors.isEmpty()) {
      errors.stream().skip(1).forEach(errors.get(0)::setNextException);
      throw errors.get(0);
    }
  }
}
