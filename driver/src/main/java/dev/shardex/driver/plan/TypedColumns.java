package dev.shardex.driver.plan;

import dev.shardex.driver.merge.DelegatingResultSet;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Map;

/**
 * A statement's rows where some select items were scalar subqueries, now bound values: the values
 * are the server's, but each such column reports the subquery column's type, precision, scale and
 * size, and is nullable, as one server reports a scalar subquery (a bound literal would say BIGINT(3)
 * NOT NULL for a COUNT(*) of 120). Its label and name stay the statement's.
 */
final class TypedColumns extends DelegatingResultSet {
  private final ResultSet rows;
  private final Map<Integer, ResultSetMetaData> typed; // 1-based column -> the subquery's metadata (its column 1)

  TypedColumns(ResultSet rows, Map<Integer, ResultSetMetaData> typed) {
    this.rows = rows;
    this.typed = typed;
  }

  @Override
  protected ResultSet rs() {
    return rows;
  }

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    ResultSetMetaData out = rows.getMetaData();
    return new SourcedMetaData() {
      @Override
      protected ResultSetMetaData meta() {
        return out;
      }

      @Override
      protected ResultSetMetaData of(int column) {
        return typed.getOrDefault(column, out);
      }

      @Override
      protected int at(int column) {
        return typed.containsKey(column) ? 1 : column;
      }

      @Override
      public int isNullable(int column) throws SQLException {
        return typed.containsKey(column) ? columnNullable : out.isNullable(column);
      }
    };
  }
}
