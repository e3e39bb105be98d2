package dev.shardex.driver.plan;

import dev.shardex.driver.merge.MergedMetaData;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;

/**
 * The metadata of a statement answered over pushed-back joined rows: the server's for computed
 * columns (aggregates, expressions), and for a column shown as is its table column's (name, type,
 * size, nullability), as one server reports it; the label is always the statement's.
 */
final class PushedMetaData extends SourcedMetaData {
  private final ResultSetMetaData out;
  private final ResultSetMetaData[] sources;
  /** Per result column: the source that describes it (-1: the server's own), and its column there (0-based). */
  private final int[] source;
  private final int[] plain;
  private final Object[] values;
  /** Per source: whether an outer join may NULL-pad its rows (its columns are nullable whatever the table says). */
  private final boolean[] padded;

  /** {@code values}: the statement's, for labels the server printed with ?N markers (a literal in an expression). */
  PushedMetaData(ResultSetMetaData out, ResultSetMetaData joined, int[] plain, Object[] values) {
    this(out, new ResultSetMetaData[] {joined}, sourceZero(plain), plain, values, new boolean[1]);
  }

  /**
   * Several sources (the pushed-back sides of a join): result column {@code i} shown as is is column
   * {@code plain[i]} of {@code sources[source[i]]}.
   */
  PushedMetaData(ResultSetMetaData out, ResultSetMetaData[] sources, int[] source, int[] plain, Object[] values,
      boolean[] padded) {
    this.padded = padded;
    this.out = out;
    this.sources = sources;
    this.source = source;
    this.plain = plain;
    this.values = values;
  }

  private static int[] sourceZero(int[] plain) {
    int[] source = new int[plain.length];
    for (int i = 0; i < plain.length; i++) {
      source[i] = plain[i] >= 0 ? 0 : -1;
    }
    return source;
  }

  @Override
  public String getColumnLabel(int column) throws SQLException {
    return MergedMetaData.fillLabel(out.getColumnLabel(column), values);
  }

  @Override
  protected ResultSetMetaData meta() {
    return out;
  }

  /** The metadata that describes a column: the joined column's when it is shown as is. */
  @Override
  protected ResultSetMetaData of(int column) {
    return shown(column) ? sources[source[column - 1]] : out;
  }

  @Override
  protected int at(int column) {
    return shown(column) ? plain[column - 1] + 1 : column;
  }

  private boolean shown(int column) {
    return column >= 1 && column <= plain.length && source[column - 1] >= 0;
  }

  @Override
  public String getColumnName(int column) throws SQLException {
    return shown(column) ? of(column).getColumnName(at(column)) : MergedMetaData.fillLabel(out.getColumnName(column), values);
  }

  @Override
  public String getTableName(int column) throws SQLException {
    return of(column).getTableName(at(column));
  }

  @Override
  public int isNullable(int column) throws SQLException {
    return shown(column) && padded[source[column - 1]] ? columnNullable : of(column).isNullable(at(column));
  }
}
