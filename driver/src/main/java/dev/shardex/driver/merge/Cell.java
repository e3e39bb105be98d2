package dev.shardex.driver.merge;

/**
 * One merged value: the object a shard's getObject gave (or the merge computed) and its text as
 * the shard's getString gave it, so a merged row reads exactly like a shard row would.
 */
public record Cell(Object value, String text) {
  public static final Cell NULL = new Cell(null, null);

  public static Cell computed(Object value) {
    if (value == null) {
      return NULL;
    }
    return new Cell(value, value instanceof java.math.BigDecimal d ? d.toPlainString() : value.toString());
  }
}
