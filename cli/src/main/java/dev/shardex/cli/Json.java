package dev.shardex.cli;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/** A minimal JSON writer for the CLI's {@code --json} output (maps, lists, strings, numbers, booleans, null). */
public final class Json {
  private Json() {}

  /** An ordered object from alternating keys and values. */
  public static Map<String, Object> obj(Object... keysAndValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      m.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return m;
  }

  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(out, value);
    return out.toString();
  }

  private static void write(StringBuilder out, Object v) {
    if (v == null) {
      out.append("null");
    } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long) {
      out.append(v);
    } else if (v instanceof Number n) {
      double d = n.doubleValue();
      out.append(Double.isFinite(d) ? (d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d)) : "null");
    } else if (v instanceof Map<?, ?> m) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        out.append(first ? "" : ",");
        first = false;
        string(out, String.valueOf(e.getKey()));
        out.append(':');
        write(out, e.getValue());
      }
      out.append('}');
    } else if (v instanceof Collection<?> c) {
      out.append('[');
      boolean first = true;
      for (Object o : c) {
        out.append(first ? "" : ",");
        first = false;
        write(out, o);
      }
      out.append(']');
    } else {
      string(out, v.toString());
    }
  }

  private static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
