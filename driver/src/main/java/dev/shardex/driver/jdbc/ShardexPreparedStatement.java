package dev.shardex.driver.jdbc;

import dev.shardex.driver.execute.ShardLease;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.sql.ParameterInliner;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.ShardSql;
import dev.shardex.driver.sql.StatementType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A prepared statement: analysed once when prepared (or found in the template cache), routed on
 * every execution from its parameter values, and prepared on the chosen shard's connection, where
 * Connector/J's statement cache makes re-preparing cheap.
 */
public final class ShardexPreparedStatement extends UnsupportedPreparedStatement {
  private final String sql;
  /** What a shard gets when the plan sends the statement as written. */
  private final ShardSql whole;
  private final RouteTemplate template;
  private final boolean wantKeys;
  private final Parameters parameters;
  private final List<Parameters> batch = new ArrayList<>();

  ShardexPreparedStatement(ShardexConnection connection, String sql, boolean wantKeys) throws SQLException {
    super(connection);
    this.sql = sql;
    this.whole = ShardSql.whole(sql);
    this.template = Jdbc.unsentGuarded(sql, () -> connection.cluster().templates().prepared(sql));
    this.wantKeys = wantKeys;
    // statements Shardex does not parse (SET, DDL, ...) carry no count in their template: count the markers
    int count = template.parameterCount();
    this.parameters = new Parameters(count > 0 ? count : dev.shardex.driver.sql.SqlLexer.countParameters(sql));
  }

  @Override
  protected Parameters parameters() {
    return parameters;
  }

  String sql() {
    return sql;
  }

  RouteTemplate template() {
    return template;
  }

  boolean wantKeys() {
    return wantKeys;
  }

  void bind(PreparedStatement ps, Parameters bound, ShardSql q) throws SQLException {
    if (q.params() == null) {
      bound.bind(ps, template.parameterCount());
    } else {
      bound.bind(ps, q.params(), template.parameterCount());
    }
  }

  @Override
  public boolean execute() throws SQLException {
    try {
      return executeOnce();
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      throw Jdbc.internal(sql, e);
    }
  }

  private boolean executeOnce() throws SQLException {
    checkOpen();
    if (template.readsSession()) {
      // LAST_INSERT_ID() and the like: the values and the session's are written in, and the text runs as a
      // plain statement does (as Connector/J's client-side prepared statements send it anyway)
      String text = ParameterInliner.inline(sql, parameters.values(), parameters.bound());
      return finish(connection.runText(connection.withSessionValues(text), wantKeys, this));
    }
    // A prepared SET is kept and replayed by the driver: its values become part of its text.
    String text = template.type() == StatementType.SESSION && sql.indexOf('?') >= 0
        ? ParameterInliner.inline(sql, parameters.values(), parameters.bound()) : sql;
    return finish(connection.run(template, parameters.values(), text, this, wantKeys, this, this));
  }

  /** One shard's share: the physical statement for its text (reused per connection), bound and run. */
  @Override
  public Statement run(ShardLease lease, int shard, RoutePlan plan) throws SQLException {
    ShardSql q = plan.asWritten() ? whole : plan.sqlFor(sql, shard);
    PreparedStatement ps = lease.prepare(q.text(), wantKeys);
    configure(lease, ps);
    bind(ps, parameters, q);
    ps.execute();
    return ps;
  }

  @Override
  public String mergeText() {
    return sql;
  }

  @Override
  public void bindChosen(PreparedStatement ps, int[] chosen) throws SQLException {
    parameters.bind(ps, chosen, template.parameterCount());
  }

  @Override
  public ResultSet executeQuery() throws SQLException {
    if (!execute()) {
      throw Jdbc.notAQuery();
    }
    return getResultSet();
  }

  @Override
  public int executeUpdate() throws SQLException {
    return (int) executeLargeUpdate();
  }

  @Override
  public long executeLargeUpdate() throws SQLException {
    if (execute()) {
      throw Jdbc.notAnUpdate();
    }
    return getLargeUpdateCount();
  }

  @Override
  public void clearParameters() {
    parameters.clear();
  }

  @Override
  public void addBatch() throws SQLException {
    Jdbc.checkOpen(isClosed(), "statement");
    batch.add(parameters.snapshot());
  }

  @Override
  public void clearBatch() {
    batch.clear();
  }

  @Override
  public long[] executeLargeBatch() throws SQLException {
    checkOpen();
    try {
      return Jdbc.guarded(sql, () -> BatchRunner.prepared(connection, this, List.copyOf(batch)));
    } finally {
      batch.clear();
    }
  }

  @Override
  public int[] executeBatch() throws SQLException {
    return BatchRunner.toInts(executeLargeBatch());
  }

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    return null; // known only once a shard has run it; JDBC allows null
  }
}
