package dev.shardex.driver.plan;

import dev.shardex.driver.sql.ValueSource;
import dev.shardex.vocabulary.ShardexError;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

/** A step's parameter values, picked from the statement's by index and extended with values a step found. */
public final class Values {
  private Values() {}

  public static Object[] pick(Object[] values, int[] indexes) {
    Object[] out = new Object[indexes.length];
    for (int i = 0; i < indexes.length; i++) {
      out[i] = values[indexes[i]];
    }
    return out;
  }

  public static Object[] concat(Object[] a, List<Object> b) {
    Object[] out = Arrays.copyOf(a, a.length + b.size());
    for (int i = 0; i < b.size(); i++) {
      out[a.length + i] = b.get(i);
    }
    return out;
  }

  /** A LIMIT or OFFSET's value: a whole number from 0 to Long.MAX_VALUE, else SHX1209. */
  public static long whole(ValueSource source, Object[] values, long absent) throws SQLException {
    if (source == null) {
      return absent;
    }
    Object v = source instanceof ValueSource.Param p ? (p.index() < values.length ? values[p.index()] : null)
        : source instanceof ValueSource.Literal l ? l.value() : null;
    if (!wholeNumber(v)) {
      throw ShardexError.UNSUPPORTED.exception("a LIMIT/OFFSET of '" + v + "' across shards", "give a whole number");
    }
    return ((Number) v).longValue();
  }

  private static boolean wholeNumber(Object v) {
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue() >= 0;
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      return d >= 0 && d == Math.rint(d) && d < 9.0e18;
    }
    if (v instanceof BigDecimal d) {
      return d.signum() >= 0 && d.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0 && d.remainder(BigDecimal.ONE).signum() == 0;
    }
    return v instanceof BigInteger i && i.signum() >= 0 && i.bitLength() < 64;
  }

}
