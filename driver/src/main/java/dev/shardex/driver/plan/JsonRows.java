package dev.shardex.driver.plan;

import dev.shardex.driver.merge.Cell;
import java.util.List;

/**
 * Rows held in the client written as the JSON a typed {@code JSON_TABLE} reads back on one shard
 * ({@link PushBack}, {@link Union}): an array of arrays, each value as the text the shard gave
 * (NULL as null), so the column declared with the value's own type reads it back exactly.
 */
final class JsonRows {
  private JsonRows() {}

  /** The first {@code columns} values of each row. */
  static String of(List<Cell[]> rows, int columns) {
    StringBuilder s = new StringBuilder(64 + rows.size() * 16 * columns);
    s.append('[');
    for (int r = 0; r < rows.size(); r++) {
      s.append(r == 0 ? "[" : ",[");
      Cell[] row = rows.get(r);
      for (int i = 0; i < columns; i++) {
        if (i > 0) {
          s.append(',');
        }
        String text = row[i].value() == null ? null : row[i].text();
        if (text == null) {
          s.append("null");
        } else {
          quote(s, text);
        }
      }
      s.append(']');
    }
    return s.append(']').toString();
  }

  private static void quote(StringBuilder s, String text) {
    s.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> s.append("\\\"");
        case '\\' -> s.append("\\\\");
        case '\n' -> s.append("\\n");
        case '\r' -> s.append("\\r");
        case '\t' -> s.append("\\t");
        default -> {
          if (c < 0x20) {
            s.append(String.format("\\u%04x", (int) c));
          } else {
            s.append(c);
          }
        }
      }
    }
    s.append('"');
  }
}
