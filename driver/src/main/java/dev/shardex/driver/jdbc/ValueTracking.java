package dev.shardex.driver.jdbc;

import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.execute.SessionValues;
import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.route.TableSchemas;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.SelectShape;
import dev.shardex.driver.sql.SessionFunctions;
import dev.shardex.driver.sql.StatementType;
import dev.shardex.driver.sql.ValueSource;
import java.sql.SQLException;
import java.util.List;

/**
 * Brings a logical connection's {@link SessionValues} up to date after a statement succeeded,
 * from what it did: the ids Shardex filled, the id the shard's OK packet reported (taken only when
 * the shard generated it or LAST_INSERT_ID(expr) set it: MariaDB reports an explicit id there too,
 * without making it LAST_INSERT_ID()), the update count, and FOUND_ROWS from {@link SessionReads}.
 */
final class ValueTracking {
  static final String NOT_CALC = "it ran on several shards without SQL_CALC_FOUND_ROWS or streamed its rows, and the"
      + " driver does not count the rows it returned";
  static final String COUNT_ROWS = "count the rows you read, or run SELECT SQL_CALC_FOUND_ROWS ... first";
  static final String COUNT_GROUPS = "count them with SELECT COUNT(*) FROM (the SELECT without LIMIT) AS t";

  private ValueTracking() {}

  static void after(SessionValues v, TableSchemas schemas, RouteTemplate t, RoutePlan plan, Object[] args, Outcome out,
      String sql, SessionReads reads) {
    if (out.isQuery()) {
      selected(v, t, plan, out, sql, reads);
      return;
    }
    v.updated(out.updateCount());
    if (plan.fill() != null) {
      v.generated(out.updateCount() > 0 ? plan.fill().ids()[0] : 0);
    } else if (out.insertId() != 0) {
      idFromShard(v, schemas, t, args, out.insertId(), sql);
    }
  }

  /**
   * The OK packet's id, when the shard generated it. The statement has run by now: a failure to read
   * the table's columns must not fail it, so the value becomes unknown (refused by name) instead.
   */
  private static void idFromShard(SessionValues v, TableSchemas schemas, RouteTemplate t, Object[] args, long id,
      String sql) {
    try {
      if (generatedHere(schemas, t, args)) {
        v.generated(id);
      }
    } catch (SQLException e) {
      v.generatedUnseen(sql, "the columns of its table could not be read to tell a generated id from an explicit one: "
          + e.getMessage());
    }
  }

  private static void selected(SessionValues v, RouteTemplate t, RoutePlan plan, Outcome out, String sql,
      SessionReads reads) {
    if (reads != null && reads.setsId() && (v.lastInsertIdKnown() || reads.id() != 0)) {
      v.setId(reads.id()); // (an unknown value stays unknown unless the expression set one)
    }
    long returned = reads == null || !reads.calc() ? bufferedRows(plan, out) : -1;
    if (returned >= 0) {
      v.selected(returned);
    } else if (reads == null || !reads.calc()) {
      v.selectedUncounted(sql, NOT_CALC, COUNT_ROWS);
    } else if (plan.fanout() == Fanout.MERGE && groups(t.shape())) {
      v.selectedUncounted(sql, "it ran on shards " + plan.shards() + " and groups or de-duplicates its rows: a group"
          + " or value on several shards would be counted once per shard", COUNT_GROUPS);
    } else {
      v.selected(reads.found());
    }
  }

  /**
   * The rows a one-shard SELECT returned (its FOUND_ROWS() without SQL_CALC_FOUND_ROWS), as Connector/J
   * holds them in memory; -1 when it streams them or the rows come from several shards.
   */
  private static long bufferedRows(RoutePlan plan, Outcome out) {
    Class<com.mysql.cj.jdbc.result.ResultSetInternalMethods> cj = com.mysql.cj.jdbc.result.ResultSetInternalMethods.class;
    try {
      if (plan.fanout() != Fanout.ONE || !out.resultSet().isWrapperFor(cj)) {
        return -1;
      }
      com.mysql.cj.protocol.ResultsetRows rows = out.resultSet().unwrap(cj).getRows();
      return rows == null || rows.isDynamic() ? -1 : rows.size();
    } catch (SQLException e) {
      return -1; // not known: FOUND_ROWS() is refused rather than the SELECT failing after it ran
    }
  }

  private static boolean groups(SelectShape s) {
    return s.aggregates() || s.groupBy() || s.distinct() || s.union() || s.nested();
  }

  /**
   * After a batch: ROW_COUNT() is the last entry's count; LAST_INSERT_ID() the first id Shardex filled
   * for the last entry that got ids, or refused when a later entry made its shard generate one.
   */
  static void afterBatch(SessionValues v, TableSchemas schemas, List<RouteTemplate> templates, List<RoutePlan> plans,
      List<Object[]> args, long[] counts, List<String> sqls) {
    for (int i = 0; i < plans.size(); i++) {
      RoutePlan plan = plans.get(i);
      if (plan.fill() != null) {
        v.generated(counts[i] > 0 ? plan.fill().ids()[0] : 0);
      } else if (counts[i] > 0 && shardGenerates(schemas, templates.get(i), args.get(i))) {
        v.generatedUnseen(sqls.get(i), "a batch entry: its shard generated the id inside a JDBC batch, in an order the"
            + " driver does not see");
      }
    }
    v.updated(counts.length == 0 ? 0 : counts[counts.length - 1]);
  }

  /** Whether a batch entry may have made its shard generate an id (when its table cannot be read: it may). */
  private static boolean shardGenerates(TableSchemas schemas, RouteTemplate t, Object[] args) {
    boolean insert = t.type() == StatementType.INSERT || t.type() == StatementType.REPLACE;
    if (!insert || t.targetTable() == null) {
      return (t.functions() & SessionFunctions.SETS_ID) != 0;
    }
    try {
      TableSchemas.Schema schema = schemas.ofAny(t.targetTable().name());
      return (!schema.known() || schema.autoIncrement() != null) && generatedHere(schemas, t, args);
    } catch (SQLException e) {
      return true;
    }
  }

  /** Whether the OK packet's id is one the shard generated (or LAST_INSERT_ID(expr) set), not an explicit id. */
  private static boolean generatedHere(TableSchemas schemas, RouteTemplate t, Object[] args) throws SQLException {
    if ((t.functions() & SessionFunctions.SETS_ID) != 0) {
      return true;
    }
    if ((t.type() != StatementType.INSERT && t.type() != StatementType.REPLACE) || t.targetTable() == null
        || t.insertRows().isEmpty()) {
      return t.type() == StatementType.INSERT || t.type() == StatementType.REPLACE;
    }
    TableSchemas.Schema schema = schemas.ofAny(t.targetTable().name());
    List<String> columns = t.insertColumns().isEmpty() ? schema.columnNames() : t.insertColumns();
    int at = schema.autoIncrement() == null ? -1 : columns.indexOf(schema.autoIncrement());
    return at < 0 || at >= t.insertRows().get(0).size() || generates(t.insertRows().get(0).get(at), args);
  }

  /** Whether a value given for the AUTO_INCREMENT column makes the server generate one: NULL, 0 or DEFAULT. */
  private static boolean generates(ValueSource s, Object[] args) {
    Object v = s instanceof ValueSource.Param p ? (p.index() < args.length ? args[p.index()] : null)
        : s instanceof ValueSource.Literal l ? l.value() : null;
    if (s instanceof ValueSource.Opaque o) {
      return o.text().equalsIgnoreCase("DEFAULT") || o.text().equalsIgnoreCase("NULL");
    }
    return v == null || (v instanceof Number n && n.doubleValue() == 0);
  }
}
