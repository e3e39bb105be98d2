package dev.shardex.cli.analyze;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * pt-query-digest's {@code --output json}: one class per fingerprint with {@code query_count},
 * {@code metrics.Query_time.sum} and an {@code example.query} (a real statement, used when present;
 * else the lower-cased fingerprint with its {@code ?} markers). The report is small (one entry per
 * class), so it is read whole.
 */
final class PtQueryDigest implements StatementSource {
  private final Path file;

  PtQueryDigest(Path file) {
    this.file = file;
  }

  @Override
  public void read(Sink sink, Progress progress) throws IOException, SQLException {
    Object root;
    try {
      root = MiniJson.parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new IOException(file + " is not pt-query-digest's JSON (" + e.getMessage() + "): run it with --output json", e);
    }
    if (!(root instanceof Map<?, ?> m) || !(m.get("classes") instanceof List<?> classes)) {
      throw new IOException(file + " has no \"classes\" list: is it pt-query-digest --output json?");
    }
    long done = 0;
    for (Object c : classes) {
      if (c instanceof Map<?, ?> cls) {
        sink.accept(statement(cls));
      }
      progress.at(++done, classes.size());
    }
  }

  private static Logged statement(Map<?, ?> cls) {
    long count = number(cls.get("query_count"), 1).longValue();
    double seconds = Double.NaN;
    if (cls.get("metrics") instanceof Map<?, ?> metrics && metrics.get("Query_time") instanceof Map<?, ?> time) {
      seconds = number(time.get("sum"), Double.NaN).doubleValue();
    }
    if (cls.get("example") instanceof Map<?, ?> example && example.get("query") instanceof String q && !q.isBlank()) {
      return new Logged(-1, q, count, seconds, false);
    }
    return new Logged(-1, String.valueOf(cls.get("fingerprint")), count, seconds, true);
  }

  /** pt-query-digest prints some figures as strings ("0.000123"). */
  private static Number number(Object v, double otherwise) {
    if (v instanceof Number n) {
      return n;
    }
    if (v instanceof String s) {
      try {
        return Double.valueOf(s);
      } catch (NumberFormatException e) {
        return otherwise;
      }
    }
    return otherwise;
  }

  @Override
  public long size() {
    return -1;
  }

  @Override
  public String describe() {
    return "pt-query-digest report " + file.getFileName();
  }
}
