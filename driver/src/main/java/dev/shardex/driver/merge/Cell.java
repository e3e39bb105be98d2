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
   * The same, knowing whether the column is a signed whole-number one ({@link #signedWholeNumbers}):
   * there a Long's or Integer's text is its decimal digits, as the shard's getString gives them
   * (ZEROFILL, which pads them, makes a column UNSIGNED), so it is written, not decoded again.
   */
  public static Cell read(java.sql.ResultSet rs, int column, boolean signedWholeNumber) throws java.sql.SQLException {
    if (!signedWholeNumber) {
      return read(rs, column);
    }
    Object v = rs.getObject(column);
    if (v == null) {
      return NULL;
    }
    return new Cell(v, v instanceof Long || v instanceof Integer ? v.toString() : v instanceof String s ? s : rs.getString(column));
  }

  /** Per column (1-based, [0] unused): whether it is a signed TINYINT, SMALLINT, MEDIUMINT, INT or BIGINT. */
  public static boolean[] signedWholeNumbers(java.sql.ResultSetMetaData meta) throws java.sql.SQLException {
    boolean[] out = new boolean[meta.getColumnCount() + 1];
    for (int i = 1; i < out.length; i++) {
      int type = meta.getColumnType(i);
      boolean whole = type == java.sql.Types.BIGINT || type == java.sql.Types.INTEGER || type == java.sql.Types.SMALLINT
          || type == java.sql.Types.TINYINT;
      String name = whole ? meta.getColumnTypeName(i) : null;
      out[i] = name != null && !name.toUpperCase(java.util.Locale.ROOT).contains("UNSIGNED");
    }
    return out;
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
