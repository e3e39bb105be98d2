package dev.shardex.driver.differential;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.text.Normalizer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A whole result set read into memory: column metadata and every row's {@code getObject} values. */
final class ResultSnapshot {
  final List<String> labels = new ArrayList<>();
  final List<Integer> types = new ArrayList<>();
  final List<String> typeNames = new ArrayList<>();
  final List<String> classNames = new ArrayList<>();
  /** Further metadata per column, by attribute: getColumnName, getPrecision, getScale, isNullable, getColumnDisplaySize. */
  final Map<String, List<Object>> details = new LinkedHashMap<>();
  final List<List<Object>> rows = new ArrayList<>();
  /** Every cell as getString returns it, row by row. */
  final List<List<String>> strings = new ArrayList<>();

  static ResultSnapshot read(ResultSet rs) throws SQLException {
    ResultSnapshot s = new ResultSnapshot();
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    for (int i = 1; i <= n; i++) {
      s.labels.add(md.getColumnLabel(i));
      s.types.add(md.getColumnType(i));
      s.typeNames.add(md.getColumnTypeName(i));
      s.classNames.add(md.getColumnClassName(i));
      s.details.computeIfAbsent("getColumnName", k -> new ArrayList<>()).add(md.getColumnName(i));
      s.details.computeIfAbsent("getPrecision", k -> new ArrayList<>()).add(md.getPrecision(i));
      s.details.computeIfAbsent("getScale", k -> new ArrayList<>()).add(md.getScale(i));
      s.details.computeIfAbsent("isNullable", k -> new ArrayList<>()).add(md.isNullable(i));
      s.details.computeIfAbsent("getColumnDisplaySize", k -> new ArrayList<>()).add(md.getColumnDisplaySize(i));
    }
    while (rs.next()) {
      List<Object> row = new ArrayList<>(n);
      List<String> text = new ArrayList<>(n);
      for (int i = 1; i <= n; i++) {
        row.add(rs.getObject(i));
        text.add(rs.getString(i));
      }
      s.rows.add(Collections.unmodifiableList(row));
      s.strings.add(Collections.unmodifiableList(text));
    }
    return s;
  }

  int columns() {
    return labels.size();
  }

  // ---------------------------------------------------------------- normalisation

  private static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

  /**
   * A value as the comparison sees it: numbers by value (so 3, 3.0 and 3.0000 are equal, as
   * BigDecimal.compareTo says), strings exactly or, when {@code fold}, under utf8mb4_general_ci
   * (case and accents ignored), dates and times as text, NULL as NULL.
   */
  static String normalise(Object v, boolean fold) {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof Number n) {
      return "N:" + decimal(n).stripTrailingZeros().toPlainString();
    }
    if (v instanceof Boolean b) {
      return "N:" + (b ? 1 : 0);
    }
    if (v instanceof String str) {
      return "S:" + (fold ? fold(str) : str);
    }
    String temporal = temporal(v);
    if (temporal != null) {
      return "T:" + temporal;
    }
    if (v instanceof byte[] bytes) {
      StringBuilder hex = new StringBuilder("B:");
      for (byte b : bytes) {
        hex.append(String.format(Locale.ROOT, "%02x", b));
      }
      return hex.toString();
    }
    return "O:" + v;
  }

  static BigDecimal decimal(Number n) {
    if (n instanceof BigDecimal d) {
      return d;
    }
    if (n instanceof BigInteger i) {
      return new BigDecimal(i);
    }
    if (n instanceof Double || n instanceof Float) {
      return new BigDecimal(n.toString());
    }
    return BigDecimal.valueOf(n.longValue());
  }

  private static String temporal(Object v) {
    if (v instanceof java.sql.Timestamp ts) {
      return datetime(ts.toLocalDateTime());
    }
    if (v instanceof java.sql.Date d) {
      return d.toLocalDate().toString();
    }
    if (v instanceof java.sql.Time t) {
      return t.toLocalTime().toString();
    }
    if (v instanceof LocalDateTime ldt) {
      return datetime(ldt);
    }
    if (v instanceof OffsetDateTime odt) {
      return datetime(odt.toLocalDateTime());
    }
    if (v instanceof LocalDate ld) {
      return ld.toString();
    }
    if (v instanceof LocalTime lt) {
      return lt.toString();
    }
    return null;
  }

  private static String datetime(LocalDateTime t) {
    return DATETIME.format(t) + (t.getNano() == 0 ? "" : "." + t.getNano());
  }

  /** utf8mb4_general_ci, near enough for this data: accents off, case folded, trailing spaces ignored (PAD SPACE). */
  static String fold(String s) {
    return Normalizer.normalize(s, Normalizer.Form.NFD).replaceAll("\\p{M}", "").toLowerCase(Locale.ROOT)
        .replaceAll(" +$", "");
  }

  /** A row as one comparable string. */
  static String rowKey(List<Object> row, java.util.Set<Integer> folded) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < row.size(); i++) {
      if (i > 0) {
        sb.append(" \u0001 ");
      }
      sb.append(normalise(row.get(i), folded.contains(i)));
    }
    return sb.toString();
  }

  /** A row for a human: values as getObject gave them, strings quoted, with their Java class when unusual. */
  static String show(List<Object> row) {
    List<String> cells = new ArrayList<>();
    for (Object v : row) {
      cells.add(showValue(v));
    }
    return "(" + String.join(", ", cells) + ")";
  }

  static String showValue(Object v) {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof String s) {
      return "'" + s + "'";
    }
    String t = temporal(v);
    if (t != null) {
      return t;
    }
    if (v instanceof BigDecimal d) {
      return d.toPlainString();
    }
    return String.valueOf(v);
  }
}
