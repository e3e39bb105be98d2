package dev.shardex.driver.execute;

import dev.shardex.driver.sql.ShardSql;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * How a JDBC batch's entries are bound for {@link BatchExecutor}, which sends them: each entry's
 * text as the application wrote it (the entry's plan gives each shard its own text), and for a
 * prepared batch how its physical statement is readied and each entry's values bound. The
 * executor takes the physical statements from the lease, adds the entries and runs the batches;
 * the JDBC statements only say what goes in. A batch of plain texts needs only their texts
 * ({@code sqls::get}); a prepared one overrides the rest.
 */
@FunctionalInterface
public interface BatchCall {
  /** Entry {@code entry}'s text as the application wrote it. */
  String sql(int entry);

  /** True: the entries are one prepared statement's parameter sets; false: plain texts. */
  default boolean prepared() {
    return false;
  }

  /** Whether the prepared statement asks for generated keys. */
  default boolean wantKeys() {
    return false;
  }

  /** Readies a physical prepared statement for the caller (its options; cancel() reaches it). */
  default void configure(ShardLease lease, Statement physical) throws SQLException {
    // plain texts are sent as the lease lends their statement
  }

  /** Binds entry {@code entry}'s values for its text on this shard ({@code q}). */
  default void bind(PreparedStatement ps, int entry, ShardSql q) throws SQLException {
    throw new IllegalStateException("a batch of plain texts binds no values");
  }
}
