package dev.shardex.driver.differential;

import dev.shardex.driver.differential.GeneratedQuery.Order;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Compares Shardex's answer to the oracle's: column count and labels, column types of the
 * non-aggregate columns, and the rows (in order when the query determines it, in order of ORDER
 * BY key groups when the keys are selected but not unique, else as multisets).
 *
 * <p>{@link #wrongRows} and {@link #wrongMetadata} are the failures; {@link #notes} records what
 * is equal in value but not in form (DECIMAL scale, the SQL type of an aggregate), for the report.
 */
final class Comparison {
  final List<String> wrongRows = new ArrayList<>();
  final List<String> wrongMetadata = new ArrayList<>();
  final List<String> notes = new ArrayList<>();

  boolean equal() {
    return wrongRows.isEmpty() && wrongMetadata.isEmpty();
  }

  static Comparison of(GeneratedQuery q, ResultSnapshot expected, ResultSnapshot actual) {
    Comparison c = new Comparison();
    c.compare(q, expected, actual);
    return c;
  }

  private void compare(GeneratedQuery q, ResultSnapshot exp, ResultSnapshot act) {
    if (exp.columns() != act.columns()) {
      wrongRows.add("column count: oracle " + exp.columns() + " " + exp.labels + ", shardex " + act.columns() + " "
          + act.labels);
      return;
    }
    if (!exp.labels.equals(act.labels)) {
      wrongMetadata.add("column labels: oracle " + exp.labels + ", shardex " + act.labels);
    }
    for (int i = 0; i < exp.columns(); i++) {
      String e = exp.types.get(i) + " " + exp.typeNames.get(i) + " " + exp.classNames.get(i);
      String a = act.types.get(i) + " " + act.typeNames.get(i) + " " + act.classNames.get(i);
      if (!e.equals(a)) {
        String what = "column " + (i + 1) + " (" + exp.labels.get(i) + ") type: oracle java.sql.Types " + e
            + ", shardex " + a;
        if (q.aggregates().contains(i)) {
          notes.add("aggregate type: oracle " + e + ", shardex " + a + " | " + what);
        } else {
          wrongMetadata.add(what);
        }
      }
    }
    for (Map.Entry<String, List<Object>> e : exp.details.entrySet()) {
      String attribute = e.getKey();
      for (int i = 0; i < exp.columns(); i++) {
        Object ev = e.getValue().get(i);
        Object av = act.details.get(attribute).get(i);
        if (Objects.equals(ev, av)) {
          continue;
        }
        String where = "column " + (i + 1) + " (" + exp.labels.get(i) + ")";
        if (q.aggregates().contains(i)) {
          // Grouped in the summary by the text before " | ".
          String what = attribute.equals("getColumnName")
              ? (Objects.equals(ev, exp.labels.get(i)) ? "oracle: its label" : "oracle: '" + ev + "'")
                  + (Objects.equals(av, act.labels.get(i)) ? ", shardex: its label" : ", shardex: another name")
              : attribute.equals("getColumnDisplaySize") ? "differs" : "oracle " + ev + ", shardex " + av;
          notes.add("aggregate " + attribute + " " + what + " | " + where + ": oracle " + ev + ", shardex " + av);
        } else {
          wrongMetadata.add(where + " " + attribute + ": oracle " + ev + ", shardex " + av);
        }
      }
    }
    compareRows(q, exp.rows, act.rows);
    if (wrongRows.isEmpty()) {
      noteScales(exp, act);
      compareValueClasses(q, exp, act);
      compareStrings(q, exp, act);
    }
  }

  /**
   * getString of every cell, rows paired by their normalised value (the rows are known to be equal
   * as multisets): a DECIMAL rendered with another scale is a note, any other difference is wrong.
   */
  private void compareStrings(GeneratedQuery q, ResultSnapshot exp, ResultSnapshot act) {
    List<Integer> ei = sortedByKey(exp, q.folded());
    List<Integer> ai = sortedByKey(act, q.folded());
    for (int k = 0; k < ei.size() && k < ai.size(); k++) {
      List<String> es = exp.strings.get(ei.get(k));
      List<String> as = act.strings.get(ai.get(k));
      for (int c = 0; c < es.size(); c++) {
        if (q.folded().contains(c) || Objects.equals(es.get(c), as.get(c))) {
          continue;
        }
        Object value = exp.rows.get(ei.get(k)).get(c);
        String what = "column " + (c + 1) + " (" + exp.labels.get(c) + ") getString: oracle '" + es.get(c)
            + "', shardex '" + as.get(c) + "'";
        if (value instanceof Number && es.get(c) != null && as.get(c) != null
            && new BigDecimal(es.get(c)).compareTo(new BigDecimal(as.get(c))) == 0) {
          notes.add("getString of an equal number: oracle '" + es.get(c).replaceAll("\\d", "9") + "', shardex '"
              + as.get(c).replaceAll("\\d", "9") + "' | " + what);
        } else {
          wrongRows.add(what + " in row " + ResultSnapshot.show(exp.rows.get(ei.get(k))));
        }
        return;
      }
    }
  }

  private static List<Integer> sortedByKey(ResultSnapshot s, Set<Integer> folded) {
    List<Integer> idx = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < s.rows.size(); i++) {
      idx.add(i);
      keys.add(ResultSnapshot.rowKey(s.rows.get(i), folded));
    }
    idx.sort((a, b) -> keys.get(a).compareTo(keys.get(b)));
    return idx;
  }

  /** The Java class getObject returns, per column (first non-NULL value), must be the oracle's. */
  private void compareValueClasses(GeneratedQuery q, ResultSnapshot exp, ResultSnapshot act) {
    for (int c = 0; c < exp.columns(); c++) {
      Class<?> e = firstClass(exp.rows, c);
      Class<?> a = firstClass(act.rows, c);
      if (e != null && a != null && e != a) {
        String what = "column " + (c + 1) + " (" + exp.labels.get(c) + ") getObject class: oracle " + e.getName()
            + ", shardex " + a.getName();
        if (q.aggregates().contains(c)) {
          notes.add("aggregate getObject class: oracle " + e.getName() + ", shardex " + a.getName() + " | " + what);
        } else {
          wrongMetadata.add(what);
        }
      }
    }
  }

  private static Class<?> firstClass(List<List<Object>> rows, int c) {
    for (List<Object> row : rows) {
      if (row.get(c) != null) {
        return row.get(c).getClass();
      }
    }
    return null;
  }

  private void compareRows(GeneratedQuery q, List<List<Object>> exp, List<List<Object>> act) {
    Set<Integer> folded = q.folded();
    if (q.order() == Order.TOTAL) {
      int n = Math.min(exp.size(), act.size());
      for (int i = 0; i < n; i++) {
        if (!ResultSnapshot.rowKey(exp.get(i), folded).equals(ResultSnapshot.rowKey(act.get(i), folded))) {
          wrongRows.add("row " + (i + 1) + " of " + exp.size() + " (ordered): oracle " + ResultSnapshot.show(exp.get(i))
              + ", shardex " + ResultSnapshot.show(act.get(i)) + rowCounts(exp, act) + multisetHint(exp, act, folded));
          return;
        }
      }
      if (exp.size() != act.size()) {
        List<List<Object>> longer = exp.size() > act.size() ? exp : act;
        wrongRows.add("row count: oracle " + exp.size() + ", shardex " + act.size() + "; first extra row ("
            + (exp.size() > act.size() ? "only in oracle" : "only in shardex") + ") at " + (n + 1) + ": "
            + ResultSnapshot.show(longer.get(n)));
      }
      return;
    }
    if (q.order() == Order.SEGMENTED) {
      List<Segment> es = segments(exp, q.orderKeys(), folded);
      List<Segment> as = segments(act, q.orderKeys(), folded);
      int n = Math.min(es.size(), as.size());
      for (int i = 0; i < n; i++) {
        if (!es.get(i).key.equals(as.get(i).key)) {
          wrongRows.add("ORDER BY group " + (i + 1) + " of " + es.size() + " (columns " + q.orderKeys() + "): oracle "
              + es.get(i).show() + ", shardex " + as.get(i).show() + rowCounts(exp, act));
          return;
        }
        String diff = multisetDiff(es.get(i).rows, as.get(i).rows, folded);
        if (diff != null) {
          wrongRows.add("inside ORDER BY group " + (i + 1) + " " + es.get(i).show() + ": " + diff);
          return;
        }
      }
      if (es.size() != as.size()) {
        wrongRows.add("ORDER BY groups: oracle " + es.size() + ", shardex " + as.size() + rowCounts(exp, act)
            + "; first extra: " + (es.size() > n ? es.get(n).show() : as.get(n).show()));
      }
      return;
    }
    String diff = multisetDiff(exp, act, folded);
    if (diff != null) {
      wrongRows.add("rows (unordered): " + diff);
    }
  }

  private static String rowCounts(List<List<Object>> exp, List<List<Object>> act) {
    return exp.size() == act.size() ? "" : " (row count: oracle " + exp.size() + ", shardex " + act.size() + ")";
  }

  /** Whether the rows were right but in the wrong order. */
  private static String multisetHint(List<List<Object>> exp, List<List<Object>> act, Set<Integer> folded) {
    return multisetDiff(exp, act, folded) == null ? "; same rows in another order" : "";
  }

  private record Segment(String key, List<Object> sample, List<Integer> keyCols, List<List<Object>> rows) {
    String show() {
      List<Object> values = new ArrayList<>();
      for (int c : keyCols) {
        values.add(sample.get(c));
      }
      return "keys " + ResultSnapshot.show(values) + " x" + rows.size();
    }
  }

  private static List<Segment> segments(List<List<Object>> rows, List<Integer> keyCols, Set<Integer> folded) {
    List<Segment> out = new ArrayList<>();
    for (List<Object> row : rows) {
      StringBuilder key = new StringBuilder();
      for (int c : keyCols) {
        // Keys that tie under the collation sort together, whatever their case.
        key.append(ResultSnapshot.normalise(row.get(c), true)).append(" \u0001 ");
      }
      String k = key.toString();
      if (out.isEmpty() || !out.get(out.size() - 1).key.equals(k)) {
        out.add(new Segment(k, row, keyCols, new ArrayList<>()));
      }
      out.get(out.size() - 1).rows.add(row);
    }
    return out;
  }

  /** Null when both hold the same rows (with multiplicity); else what is missing and what is extra. */
  static String multisetDiff(List<List<Object>> exp, List<List<Object>> act, Set<Integer> folded) {
    Map<String, Integer> counts = new HashMap<>();
    Map<String, List<Object>> sample = new HashMap<>();
    for (List<Object> row : exp) {
      String k = ResultSnapshot.rowKey(row, folded);
      counts.merge(k, 1, Integer::sum);
      sample.putIfAbsent(k, row);
    }
    for (List<Object> row : act) {
      String k = ResultSnapshot.rowKey(row, folded);
      counts.merge(k, -1, Integer::sum);
      sample.putIfAbsent(k, row);
    }
    List<String> missing = new ArrayList<>();
    List<String> extra = new ArrayList<>();
    int missingTotal = 0;
    int extraTotal = 0;
    for (Map.Entry<String, Integer> e : new java.util.TreeMap<>(counts).entrySet()) {
      int n = e.getValue();
      if (n > 0) {
        missingTotal += n;
        if (missing.size() < 3) {
          missing.add(ResultSnapshot.show(sample.get(e.getKey())) + (n > 1 ? " x" + n : ""));
        }
      } else if (n < 0) {
        extraTotal -= n;
        if (extra.size() < 3) {
          extra.add(ResultSnapshot.show(sample.get(e.getKey())) + (n < -1 ? " x" + (-n) : ""));
        }
      }
    }
    if (missingTotal == 0 && extraTotal == 0) {
      return null;
    }
    return "oracle " + exp.size() + " rows, shardex " + act.size() + "; " + missingTotal + " only in oracle "
        + missing + (missingTotal > missing.size() ? "..." : "") + ", " + extraTotal + " only in shardex " + extra
        + (extraTotal > extra.size() ? "..." : "");
  }

  /** DECIMAL values equal by compareTo but with another scale (e.g. AVG 3.3333 vs 3.33333333). */
  private void noteScales(ResultSnapshot exp, ResultSnapshot act) {
    for (int c = 0; c < exp.columns(); c++) {
      Set<Integer> es = scales(exp.rows, c);
      Set<Integer> as = scales(act.rows, c);
      if (!es.isEmpty() && !as.isEmpty() && !Objects.equals(es, as)) {
        notes.add("DECIMAL value scale: oracle " + es + ", shardex " + as + " | column " + (c + 1) + " ("
            + exp.labels.get(c) + ")");
      }
    }
  }

  private static Set<Integer> scales(List<List<Object>> rows, int c) {
    Set<Integer> out = new TreeSet<>();
    for (List<Object> row : rows) {
      if (row.get(c) instanceof BigDecimal d) {
        out.add(d.scale());
      }
    }
    return out;
  }

  String describe() {
    List<String> all = new ArrayList<>(wrongRows);
    all.addAll(wrongMetadata);
    return String.join("; ", all);
  }
}
