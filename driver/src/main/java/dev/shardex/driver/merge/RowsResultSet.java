package dev.shardex.driver.merge;

import dev.shardex.vocabulary.ShardexError;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;

/**
 * Merged rows held in memory (grouped, aggregated or de-duplicated results), read through the
 * usual JDBC getters. Values keep the objects and texts the shards gave, so getObject and
 * getString answer as a shard would; the getters convert as Connector/J does for the common types.
 * Calls it does not implement fail with SQLState 0A000.
 */
public final class RowsResultSet extends DelegatingResultSet {
  private final List<Cell[]> rows;
  private final ResultSetMetaData meta;
  private final Statement owner;
  private int cursor = -1;
  private boolean wasNull;
  private boolean closed;

  /** Rows computed outside the merge stage (a cross-shard join's), read with the given metadata. */
  public static RowsResultSet of(List<Cell[]> rows, ResultSetMetaData meta) {
    return new RowsResultSet(rows, meta, null);
  }

  /** Rows for the application, whose getStatement() answers the logical statement. */
  public static RowsResultSet of(List<Cell[]> rows, ResultSetMetaData meta, Statement owner) {
    return new RowsResultSet(rows, meta, owner);
  }

  /** The rows themselves (an operator reading another's buffered output takes them without a copy). */
  public List<Cell[]> cells() {
    return rows;
  }

  /**
   * The heap its rows take, estimated ({@link Cell#heldBytes}; each row's array 16 bytes plus 4
   * per column, and the list 4 per row): EXPLAIN ANALYZE ROUTE's held_bytes of a buffered step.
   */
  public long heldBytes() {
    long bytes = 16 + 4L * rows.size();
    for (Cell[] row : rows) {
      bytes += 16 + 4L * row.length;
      for (Cell c : row) {
        bytes += c == null ? 0 : c.heldBytes();
      }
    }
    return bytes;
  }

  RowsResultSet(List<Cell[]> rows, ResultSetMetaData meta, Statement owner) {
    this.rows = rows;
    this.meta = meta;
    this.owner = owner;
  }

  @Override
  protected ResultSet rs() throws SQLException {
    throw ShardexError.UNSUPPORTED.exception("this call on a merged cross-shard result set", "read it with the getters");
  }

  private Cell cell(int column) throws SQLException {
    if (cursor < 0 || cursor >= rows.size()) {
      throw dev.shardex.vocabulary.ShardexError.NO_CURRENT_ROW.exception();
    }
    if (column < 1 || column > meta.getColumnCount()) {
      throw dev.shardex.vocabulary.ShardexError.COLUMN_INDEX.exception(column, meta.getColumnCount());
    }
    Cell c = rows.get(cursor)[column - 1];
    wasNull = c.value() == null;
    return c;
  }

  @Override
  public boolean next() {
    if (cursor < rows.size()) {
      cursor++;
    }
    return cursor < rows.size();
  }

  @Override
  public int findColumn(String label) throws SQLException {
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      if (meta.getColumnLabel(i).equalsIgnoreCase(label)) {
        return i;
      }
    }
    throw dev.shardex.vocabulary.ShardexError.COLUMN_NOT_FOUND.exception(label);
  }

  @Override
  public Object getObject(int column) throws SQLException {
    return cell(column).value();
  }

  private interface Conversion<T> {
    T apply(Object value);
  }

  /** A getter's conversion of a merged value; a value it cannot convert is an SQLDataException, as with Connector/J. */
  private <T> T convert(int column, String type, Conversion<T> conversion) throws SQLException {
    Object v = cell(column).value();
    try {
      return conversion.apply(v);
    } catch (RuntimeException e) {
      String text = String.valueOf(v);
      throw new java.sql.SQLDataException("Shardex: column " + column + " value '"
          + (text.length() > 40 ? text.substring(0, 37) + "..." : text) + "' cannot be read as " + type, "22018", e);
    }
  }

  @Override
  public String getString(int column) throws SQLException {
    return cell(column).text();
  }

  @Override
  public long getLong(int column) throws SQLException {
    return convert(column, "a number", v -> v == null ? 0L : v instanceof Number n ? n.longValue() : new BigDecimal(v.toString().trim()).longValue());
  }

  @Override
  public int getInt(int column) throws SQLException {
    return (int) getLong(column);
  }

  @Override
  public short getShort(int column) throws SQLException {
    return (short) getLong(column);
  }

  @Override
  public byte getByte(int column) throws SQLException {
    return (byte) getLong(column);
  }

  @Override
  public double getDouble(int column) throws SQLException {
    return convert(column, "a number", v -> v == null ? 0.0 : v instanceof Number n ? n.doubleValue() : Double.parseDouble(v.toString().trim()));
  }

  @Override
  public float getFloat(int column) throws SQLException {
    return (float) getDouble(column);
  }

  @Override
  public boolean getBoolean(int column) throws SQLException {
    Object v = cell(column).value();
    return v != null && (v instanceof Boolean b ? b : v instanceof Number n ? n.doubleValue() != 0 : !"0".equals(v.toString()));
  }

  @Override
  public BigDecimal getBigDecimal(int column) throws SQLException {
    return convert(column, "a decimal", v -> v == null ? null : v instanceof Number n ? ValueOrder.decimal(n) : new BigDecimal(v.toString().trim()));
  }

  @Override
  public byte[] getBytes(int column) throws SQLException {
    Object v = cell(column).value();
    return v == null ? null : v instanceof byte[] b ? b : cell(column).text().getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  @Override
  public Timestamp getTimestamp(int column) throws SQLException {
    return convert(column, "a timestamp", v -> v == null ? null : v instanceof LocalDateTime t ? Timestamp.valueOf(t) : v instanceof Timestamp t ? t
        : v instanceof LocalDate d ? Timestamp.valueOf(d.atStartOfDay()) : Timestamp.valueOf(v.toString()));
  }

  @Override
  public Date getDate(int column) throws SQLException {
    return convert(column, "a date", v -> v == null ? null : v instanceof LocalDate d ? Date.valueOf(d) : v instanceof LocalDateTime t
        ? Date.valueOf(t.toLocalDate()) : v instanceof Date d ? d : Date.valueOf(v.toString().substring(0, 10)));
  }

  @Override
  public Time getTime(int column) throws SQLException {
    return convert(column, "a time", v -> v == null ? null : v instanceof LocalTime t ? Time.valueOf(t) : v instanceof Time t ? t : Time.valueOf(v.toString()));
  }

  @Override
  public <T> T getObject(int column, Class<T> type) throws SQLException {
    Object v = cell(column).value();
    if (v == null || type.isInstance(v)) {
      return type.cast(v);
    }
    Object converted = type == String.class ? getString(column) : type == Long.class ? (Object) getLong(column)
        : type == Integer.class ? (Object) getInt(column) : type == BigDecimal.class ? getBigDecimal(column)
        : type == Double.class ? (Object) getDouble(column) : type == Timestamp.class ? getTimestamp(column)
        : type == LocalDateTime.class ? getTimestamp(column).toLocalDateTime() : type == LocalDate.class
        ? getDate(column).toLocalDate() : null;
    if (converted == null) {
      throw ShardexError.UNSUPPORTED.exception("getObject(" + column + ", " + type.getName() + ") on a merged result",
          "read it as " + v.getClass().getName());
    }
    return type.cast(converted);
  }

  @Override
  public Object getObject(String label) throws SQLException {
    return getObject(findColumn(label));
  }

  @Override
  public String getString(String label) throws SQLException {
    return getString(findColumn(label));
  }

  @Override
  public long getLong(String label) throws SQLException {
    return getLong(findColumn(label));
  }

  @Override
  public int getInt(String label) throws SQLException {
    return getInt(findColumn(label));
  }

  @Override
  public double getDouble(String label) throws SQLException {
    return getDouble(findColumn(label));
  }

  @Override
  public BigDecimal getBigDecimal(String label) throws SQLException {
    return getBigDecimal(findColumn(label));
  }

  @Override
  public boolean getBoolean(String label) throws SQLException {
    return getBoolean(findColumn(label));
  }

  @Override
  public Timestamp getTimestamp(String label) throws SQLException {
    return getTimestamp(findColumn(label));
  }

  @Override
  public Date getDate(String label) throws SQLException {
    return getDate(findColumn(label));
  }

  @Override
  public <T> T getObject(String label, Class<T> type) throws SQLException {
    return getObject(findColumn(label), type);
  }

  @Override
  public boolean wasNull() {
    return wasNull;
  }

  @Override
  public ResultSetMetaData getMetaData() {
    return meta;
  }

  @Override
  public Statement getStatement() {
    return owner;
  }

  @Override
  public int getRow() {
    return cursor >= 0 && cursor < rows.size() ? cursor + 1 : 0;
  }

  @Override
  public boolean isBeforeFirst() {
    return cursor < 0 && !rows.isEmpty();
  }

  @Override
  public boolean isAfterLast() {
    return cursor >= rows.size() && !rows.isEmpty();
  }

  @Override
  public int getType() {
    return ResultSet.TYPE_FORWARD_ONLY;
  }

  @Override
  public int getConcurrency() {
    return ResultSet.CONCUR_READ_ONLY;
  }

  @Override
  public java.sql.SQLWarning getWarnings() {
    return null;
  }

  @Override
  public void clearWarnings() {
    // none
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public void close() {
    closed = true;
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return dev.shardex.driver.merge.Wrappers.unwrap(this, iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return dev.shardex.driver.merge.Wrappers.isWrapperFor(this, iface);
  }
}
