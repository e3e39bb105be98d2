package dev.shardex.driver.plan;

import dev.shardex.driver.merge.DelegatingMetaData;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;

/**
 * The metadata of a UNION's rows, as one server reports a UNION's. A column is nullable when any
 * branch's is: each branch statement computed its items over the real columns, so its shards know
 * (the JSON_TABLE columns the combining shard read are all nullable). Combined on one shard, the
 * rest is that server's; concatenated, it is the first branch's labels and types (every branch's
 * are the same), with no table or catalog, the label as the column's name, read-only as a UNION
 * ALL's rows are.
 */
final class UnionMetaData extends DelegatingMetaData {
  private final ResultSetMetaData meta;
  private final List<ResultSetMetaData> branches;
  private final boolean concatenated;

  private UnionMetaData(ResultSetMetaData meta, List<ResultSetMetaData> branches, boolean concatenated) {
    this.meta = meta;
    this.branches = branches;
    this.concatenated = concatenated;
  }

  static UnionMetaData concatenated(List<ResultSetMetaData> branches) {
    return new UnionMetaData(branches.get(0), branches, true);
  }

  /** {@code server}: the combining shard's metadata (labels filled with the statement's values). */
  static UnionMetaData combined(ResultSetMetaData server, List<ResultSetMetaData> branches) {
    return new UnionMetaData(server, branches, false);
  }

  @Override
  protected ResultSetMetaData meta() {
    return meta;
  }

  @Override
  public String getColumnName(int column) throws SQLException {
    return concatenated ? meta.getColumnLabel(column) : meta.getColumnName(column);
  }

  @Override
  public String getTableName(int column) throws SQLException {
    return concatenated ? "" : meta.getTableName(column);
  }

  @Override
  public String getCatalogName(int column) throws SQLException {
    return concatenated ? "" : meta.getCatalogName(column);
  }

  @Override
  public boolean isAutoIncrement(int column) throws SQLException {
    return !concatenated && meta.isAutoIncrement(column);
  }

  @Override
  public boolean isReadOnly(int column) throws SQLException {
    return concatenated || meta.isReadOnly(column);
  }

  @Override
  public int isNullable(int column) throws SQLException {
    for (ResultSetMetaData m : branches) {
      if (column <= m.getColumnCount() && m.isNullable(column) != columnNoNulls) {
        return columnNullable;
      }
    }
    return columnNoNulls;
  }
}
