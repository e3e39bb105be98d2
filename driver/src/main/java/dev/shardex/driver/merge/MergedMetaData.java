package dev.shardex.driver.merge;

import dev.shardex.driver.sql.MergeSpec;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;

/**
 * Metadata for merged rows: the shard's, column by column (so labels, types and class names are
 * what one server reports), without the hidden trailing columns the rewrite added, with
 * COUNT(DISTINCT) typed BIGINT, SUM/AVG(DISTINCT) of integers typed DECIMAL, and AVG given MySQL's
 * scale (+4). Without a spec it only cuts the hidden columns off.
 */
public final class MergedMetaData extends DelegatingMetaData {
  private final ResultSetMetaData meta;
  private final int visible;
  private final MergeSpec spec;
  private final Object[] values;

  public MergedMetaData(ResultSetMetaData meta, int visible, MergeSpec spec, Object[] values) {
    this.meta = meta;
    this.visible = visible;
    this.spec = spec;
    this.values = values;
  }

  @Override
  protected ResultSetMetaData meta() {
    return meta;
  }

  @Override
  public int getColumnCount() {
    return visible;
  }

  /** The slot an aggregate column folds, or null when the shard's own answer stands. */
  private MergeSpec.Slot slot(int column) {
    return spec != null && spec.aggregate() && column >= 1 && column <= spec.slots().size()
        ? spec.slots().get(column - 1) : null;
  }

  private boolean distinctCount(MergeSpec.Slot s) {
    return s != null && s.fold() == MergeSpec.Fold.DISTINCT_VALUES;
  }

  /** SUM(DISTINCT) / AVG(DISTINCT) of an integer column: added up exactly, as DECIMAL. */
  private boolean distinctDecimal(MergeSpec.Slot s, int column) throws SQLException {
    return s != null && (s.fold() == MergeSpec.Fold.DISTINCT_SUM || s.fold() == MergeSpec.Fold.DISTINCT_AVG)
        && isIntegral(meta.getColumnType(column));
  }

  @Override
  public String getColumnLabel(int column) throws SQLException {
    MergeSpec.Slot s = slot(column);
    return s != null && s.label() != null ? fillLabel(s.label(), values) : meta.getColumnLabel(column);
  }

  @Override
  public String getColumnName(int column) throws SQLException {
    MergeSpec.Slot s = slot(column);
    return s != null && s.label() != null ? fillLabel(s.label(), values) : meta.getColumnName(column);
  }

  @Override
  public int getColumnType(int column) throws SQLException {
    MergeSpec.Slot s = slot(column);
    return distinctCount(s) ? Types.BIGINT : distinctDecimal(s, column) ? Types.DECIMAL : meta.getColumnType(column);
  }

  @Override
  public String getColumnTypeName(int column) throws SQLException {
    MergeSpec.Slot s = slot(column);
    return distinctCount(s) ? "BIGINT" : distinctDecimal(s, column) ? "DECIMAL" : meta.getColumnTypeName(column);
  }

  @Override
  public String getColumnClassName(int column) throws SQLException {
    MergeSpec.Slot s = slot(column);
    return distinctCount(s) ? Long.class.getName()
        : distinctDecimal(s, column) ? java.math.BigDecimal.class.getName() : meta.getColumnClassName(column);
  }

  @Override
  public int getPrecision(int column) throws SQLException {
    return distinctCount(slot(column)) ? 21 : meta.getPrecision(column);
  }

  @Override
  public int getScale(int column) throws SQLException {
    MergeSpec.Slot s = slot(column);
    if (distinctCount(s)) {
      return 0;
    }
    if (distinctDecimal(s, column)) {
      return s.fold() == MergeSpec.Fold.DISTINCT_AVG ? 4 : 0;
    }
    if (s != null && s.avgCount() > 0 && meta.getColumnType(column) == Types.DECIMAL) {
      return meta.getScale(column) + 4;
    }
    return meta.getScale(column);
  }

  private static final java.util.regex.Pattern MARKER = java.util.regex.Pattern.compile("\\?(\\d+)");

  /** A label's ?N markers, filled with the literals as the server prints them in a label. */
  public static String fillLabel(String label, Object[] values) {
    java.util.regex.Matcher m = MARKER.matcher(label);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      int k = Integer.parseInt(m.group(1)) - 1;
      if (k < 0 || k >= values.length) {
        continue; // not a marker the statement's values fill
      }
      Object v = values[k];
      String text = v == null ? "NULL" : v instanceof String s ? "'" + s.replace("'", "''") + "'"
          : v instanceof java.math.BigDecimal d ? d.toPlainString() : v.toString();
      m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(text));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static boolean isIntegral(int type) {
    return type == Types.TINYINT || type == Types.SMALLINT || type == Types.INTEGER || type == Types.BIGINT;
  }
}
