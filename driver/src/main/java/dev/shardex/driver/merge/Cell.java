package dev.shardex.driver.merge;

/**
 * One merged value: the object a shard's getObject gave (or the merge computed) and its text as
 * the shard's getString gave it, so a merged row reads exactly like a shard row would.
 */
public record Cell(Object value, String text) {
  public static final Cell NULL = new Cell(null, null);

  /**
   * A shard row's value at {@code column}: its getObject, and its getString text. A string's text is
   * the string itself (both decode the same bytes in the same character set), so it is not decoded
   * twice: buffered steps read every cell this way, and a step past its cap reads cap+1 rows.
   */
  public static Cell read(java.sql.ResultSet rs, int column) throws java.sql.SQLException {
    Object v = rs.getObject(column);
    if (v == null) {
      return NULL;
    }
    return new Cell(v, v instanceof String s ? s : rs.getString(column));
  }

  public static Cell computed(Object value) {
    if (value == null) {
      return NULL;
    }
    return new Cell(value, value instanceof java.math.BigDecimal d ? d.toPlainString() : value.toString());
  }
}
