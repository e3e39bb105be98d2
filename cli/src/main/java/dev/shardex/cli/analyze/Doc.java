package dev.shardex.cli.analyze;

import java.util.List;
import java.util.Map;

/** Typed reads of the report document ({@link Report}) for its renderers. */
final class Doc {
  private Doc() {}

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  static List<Object> list(Object o) {
    return (List<Object>) o;
  }

  static long count(Object o) {
    return ((Number) o).longValue();
  }

  static double share(Object o) {
    return o == null ? 0 : ((Number) o).doubleValue();
  }

  /** {@code summary.one.count}, {@code refusals.0.count}: a path of keys and list indexes. */
  static Object at(Map<String, Object> doc, String path) {
    Object o = doc;
    for (String k : path.split("\\.")) {
      o = o instanceof List<?> l ? l.get(Integer.parseInt(k)) : map(o).get(k);
    }
    return o;
  }
}
