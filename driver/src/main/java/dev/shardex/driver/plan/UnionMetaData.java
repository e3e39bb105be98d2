package dev.shardex.driver.plan;

import dev.shardex.driver.merge.DelegatingMetaData;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;

/**
 * The metadata of a UNION ALL's concatenated branches, as one server reports a UNION ALL's: the
 * first branch's labels and types (every branch's are the same), no table or catalog, the label as
 * the column's name, read-only, and nullable when any branch's column is.
 */
final class UnionMetaData extends DelegatingMetaData {
  private final List<ResultSetMetaData> branches;

  UnionMetaData(List<ResultSetMetaData> branches) {
    this.branches = branches;
  }

  @Override
  protected ResultSetMetaData meta() {
    return branches.get(0);
  }

  @Override
  public String getColumnName(int column) throws SQLException {
    return meta().getColumnLabel(column);
  }

  @Override
  public String getTableName(int column) {
    return "";
  }

  @Override
  public String getCatalogName(int column) {
    return "";
  }

  @Override
  public boolean isAutoIncrement(int column) {
    return false;
  }

  /** A UNION ALL's rows are read-only, as MariaDB reports them (the server streams them, no table of its own). */
  @Override
  public boolean isReadOnly(int column) {
    return true;
  }

  @Override
  public int isNullable(int column) throws SQLException {
    for (ResultSetMetaData m : branches) {
      if (m.isNullable(column) != columnNoNulls) {
        return columnNullable;
      }
    }
    return columnNoNulls;
  }
}
