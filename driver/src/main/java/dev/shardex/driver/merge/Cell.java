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

  /**
   * The heap this cell takes, estimated for a 64-bit JVM with compressed pointers: the cell (16
   * bytes), its text (a String of 24 bytes plus its characters, one byte each when Latin-1, else
   * two) and its value (shared with the text for a string; 16 for a boxed number, else 32 plus the
   * text's characters again as a bound for BigDecimal, dates and byte arrays). NULL is shared: 0.
   */
  public long heldBytes() {
    if (value == null) {
      return 0;
    }
    long text = this.text == null ? 0 : 24 + 16 + chars(this.text);
    long val = value == this.text ? 0
        : value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte ? 16
        : 32 + (this.text == null ? 0 : chars(this.text));
    return 16 + text + val;
  }

  private static long chars(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) > 0xFF) {
        return 2L * s.length();
      }
    }
    return s.length();
  }

  public static Cell computed(Object value) {
    if (value == null) {
      return NULL;
    }
    return new Cell(value, value instanceof java.math.BigDecimal d ? d.toPlainString() : value.toString());
  }
}
