package dev.shardex.driver.merge;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import javax.sql.rowset.CachedRowSet;
import javax.sql.rowset.RowSetMetaDataImpl;
import javax.sql.rowset.RowSetProvider;

/**
 * Small result sets held in memory (generated keys after the connection went back to its pool,
 * EXPLAIN ROUTE output), built on the JDK's CachedRowSet rather than a hand-written ResultSet.
 */
public final class InMemoryResults {
  private InMemoryResults() {}

  /** Reads a result set fully into memory, so its connection can be released. */
  public static ResultSet copy(ResultSet rs) throws SQLException {
    CachedRowSet copy = RowSetProvider.newFactory().createCachedRowSet();
    copy.populate(rs);
    return withStates(copy);
  }

  /** A result set of VARCHAR/BIGINT columns holding the given rows. */
  public static ResultSet of(List<String> columns, List<Integer> sqlTypes, List<Object[]> rows) throws SQLException {
    RowSetMetaDataImpl meta = new RowSetMetaDataImpl();
    meta.setColumnCount(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      meta.setColumnName(i + 1, columns.get(i));
      meta.setColumnLabel(i + 1, columns.get(i));
      meta.setColumnType(i + 1, sqlTypes.get(i));
      meta.setNullable(i + 1, java.sql.ResultSetMetaData.columnNullable);
    }
    CachedRowSet set = RowSetProvider.newFactory().createCachedRowSet();
    set.setMetaData(meta);
    for (Object[] row : rows) {
      set.moveToInsertRow();
      for (int i = 0; i < row.length; i++) {
        set.updateObject(i + 1, row[i]);
      }
      set.insertRow();
    }
    set.moveToCurrentRow();
    set.beforeFirst();
    return withStates(set);
  }

  /**
   * The JDK's CachedRowSet throws SQLExceptions without an SQLState (and a few runtime exceptions)
   * for a conversion it cannot make; every Shardex failure has one, so these get 22018 (data
   * conversion) or HY000. A proxy: these result sets are small and off the hot path.
   */
  private static ResultSet withStates(ResultSet rs) {
    return (ResultSet) java.lang.reflect.Proxy.newProxyInstance(ResultSet.class.getClassLoader(), new Class<?>[] {ResultSet.class},
        (proxy, method, args) -> {
          try {
            return method.invoke(rs, args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SQLException sql && sql.getSQLState() != null) {
              throw sql;
            }
            String state = method.getName().startsWith("get") ? "22018" : "HY000";
            throw new SQLException("Shardex: " + method.getName() + ": " + cause.getMessage(), state, cause);
          }
        });
  }
}
