package dev.shardex.driver.jdbc;

import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.execute.ShardLease;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.sql.ShardSql;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A shard call whose values were fixed when it was made, unlike a statement's own call (which binds
 * the values set now): a held INSERT sent when its key arrives, or one batch entry run on its own.
 * {@code prepared} is null for a plain text, whose literals are in {@code sql}.
 */
record BoundCall(String sql, ShardexPreparedStatement prepared, Parameters parameters) implements ShardCall {

  /** The statement running now, with its values as they are now. */
  static BoundCall of(Statement owner, String sql) {
    return owner instanceof ShardexPreparedStatement p ? of(p, p.parameters().snapshot()) : new BoundCall(sql, null, null);
  }

  static BoundCall of(ShardexPreparedStatement p, Parameters values) {
    return new BoundCall(p.sql(), p, values);
  }

  @Override
  public Statement run(ShardLease lease, int shard, RoutePlan plan) throws SQLException {
    ShardSql q = plan.sqlFor(sql, shard);
    if (prepared == null) {
      Statement s = lease.statement();
      s.execute(lease.sql(q.text()));
      return s;
    }
    PreparedStatement ps = lease.prepare(q.text(), false);
    prepared.bind(ps, parameters, q);
    ps.execute();
    return ps;
  }
}
