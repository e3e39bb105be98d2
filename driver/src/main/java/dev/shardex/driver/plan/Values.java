package dev.shardex.driver.plan;

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
}
