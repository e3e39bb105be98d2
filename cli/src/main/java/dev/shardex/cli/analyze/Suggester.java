package dev.shardex.cli.analyze;

import dev.shardex.driver.route.TableSchemas;
import dev.shardex.driver.sql.Hints;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A layout proposed from how the statements use the tables (weighted by executions):
 * <ul>
 *   <li>each table's key is the column it is most often compared with by equality (join columns
 *       included; a tie goes to a join column);</li>
 *   <li>tables whose statements join them on both their keys, or whose keys share a name (other than
 *       {@code id}), co-locate: one key space, so their joins stay on one shard;</li>
 *   <li>a table never filtered by equality is GLOBAL when at most a tenth of its statements write
 *       it (a reference table), else SINGLE;</li>
 *   <li>a lookup is suggested on a column compared by equality in statements that lack the key (the
 *       layout's key for a table it declares SHARDED, else the proposed one), with
 *       the share of the table's statements that would then route by it; unique when the schema
 *       has a one-column unique key on it.</li>
 * </ul>
 */
final class Suggester {
  /** How schemas are read (the what-if cluster's information_schema). */
  @FunctionalInterface
  interface Schemas {
    TableSchemas.Schema of(String table) throws SQLException;
  }

  record KeyGroup(String keySpace, KeyType type, Map<String, String> tables, long uses) {}

  record LookupHint(String table, String column, boolean unique, long executions, double share) {}

  record Proposal(List<KeyGroup> groups, Map<String, TableKind> unkeyed, List<LookupHint> lookups) {}

  private final Map<String, Map<String, Long>> equalities = new TreeMap<>();
  private final Map<String, Long> executions = new HashMap<>();
  private final Map<String, Long> writes = new HashMap<>();
  private final Map<List<String>, Long> joins = new HashMap<>();
  /** Each routed digest's shape and executions. */
  private final List<Map.Entry<Shape, Long>> shapes = new ArrayList<>();
  private final Schemas schemas;
  private final Keys declared;

  /** A table's key in the layout analysed, or null when it is not SHARDED there. */
  @FunctionalInterface
  interface Keys {
    String of(String table) throws SQLException;
  }

  Suggester(Findings f, Schemas schemas, Keys declared) {
    this.schemas = schemas;
    this.declared = declared;
    for (DigestStats d : f.digests.values()) {
      long n = d.executions() - d.tally.count(Route.IGNORED);
      if (n > 0 && d.shape.ignored() == null) {
        count(d.shape, n);
        shapes.add(Map.entry(d.shape, n));
      }
    }
  }

  private void count(Shape s, long n) {
    for (String t : s.tables()) {
      executions.merge(t, n, Long::sum);
      if (s.write()) {
        writes.merge(t, n, Long::sum);
      }
      equalities.computeIfAbsent(t, k -> new HashMap<>());
    }
    for (String tc : s.equalities()) {
      use(tc, 2 * n);
    }
    for (String[] j : s.joins()) {
      joins.merge(List.of(j[0], j[1]), n, Long::sum);
      use(j[0], 2 * n + 1); // a join column is a filter for the joined rows, and wins a tie: it co-locates
      use(j[1], 2 * n + 1);
    }
  }

  /** Equality uses count double, so a join column's extra one breaks ties without outweighing a real use. */
  private void use(String tableColumn, long weight) {
    int dot = tableColumn.indexOf('.');
    equalities.computeIfAbsent(tableColumn.substring(0, dot), k -> new HashMap<>())
        .merge(tableColumn.substring(dot + 1), weight, Long::sum);
  }

  Proposal propose() throws SQLException {
    Map<String, String> keys = new TreeMap<>();
    Map<String, TableKind> unkeyed = new TreeMap<>();
    equalities.forEach((t, cols) -> {
      String key = top(cols);
      if (key != null) {
        keys.put(t, key);
      } else {
        boolean readMostly = writes.getOrDefault(t, 0L) * 10 <= executions.getOrDefault(t, 0L);
        unkeyed.put(t, readMostly ? TableKind.GLOBAL : TableKind.SINGLE);
      }
    });
    Map<String, String> inForce = new TreeMap<>(keys);
    for (String t : equalities.keySet()) {
      String k = declared.of(t);
      if (k != null) {
        inForce.put(t, k); // lookups complement the key the layout gives, not the one proposed
      }
    }
    return new Proposal(groups(keys), unkeyed, lookups(inForce));
  }

  private static String top(Map<String, Long> cols) {
    return cols.entrySet().stream()
        .max(Comparator.<Map.Entry<String, Long>>comparingLong(Map.Entry::getValue).thenComparing(Map.Entry::getKey,
            Comparator.reverseOrder()))
        .map(Map.Entry::getKey).orElse(null);
  }

  private List<KeyGroup> groups(Map<String, String> keys) throws SQLException {
    Map<String, String> parent = new HashMap<>();
    keys.keySet().forEach(t -> parent.put(t, t));
    joins.keySet().forEach(j -> {
      String[] a = j.get(0).split("\\.", 2);
      String[] b = j.get(1).split("\\.", 2);
      if (a[1].equals(keys.get(a[0])) && b[1].equals(keys.get(b[0]))) {
        union(parent, a[0], b[0]);
      }
    });
    Map<String, String> byKeyName = new HashMap<>();
    keys.forEach((t, k) -> {
      if (!k.equals("id")) {
        String first = byKeyName.putIfAbsent(k, t);
        if (first != null) {
          union(parent, first, t);
        }
      }
    });
    Map<String, Map<String, String>> members = new TreeMap<>();
    keys.forEach((t, k) -> members.computeIfAbsent(find(parent, t), r -> new TreeMap<>()).put(t, k));
    List<KeyGroup> groups = new ArrayList<>();
    for (Map<String, String> m : members.values()) {
      long uses = m.keySet().stream().mapToLong(t -> executions.getOrDefault(t, 0L)).sum();
      groups.add(new KeyGroup(null, type(m), m, uses));
    }
    groups.sort(Comparator.comparingLong(KeyGroup::uses).reversed());
    List<KeyGroup> named = new ArrayList<>();
    for (int i = 0; i < groups.size(); i++) {
      KeyGroup g = groups.get(i);
      named.add(new KeyGroup(i == 0 ? "default" : "ks_" + g.tables().values().iterator().next(), g.type(), g.tables(), g.uses()));
    }
    return named;
  }

  /** STRING when the first table's key column has a text type in the schema. */
  private KeyType type(Map<String, String> members) throws SQLException {
    Map.Entry<String, String> first = members.entrySet().iterator().next();
    for (TableSchemas.Column c : schemas.of(first.getKey()).columns()) {
      if (c.name().equals(first.getValue())) {
        return c.type().matches("(?i).*(char|text|binary|blob|enum).*") ? KeyType.STRING : KeyType.BIGINT;
      }
    }
    return KeyType.BIGINT;
  }

  private List<LookupHint> lookups(Map<String, String> keys) throws SQLException {
    List<LookupHint> hints = new ArrayList<>();
    for (Map.Entry<String, Map<String, Long>> t : withoutKey(keys).entrySet()) {
      long total = executions.getOrDefault(t.getKey(), 0L);
      for (Map.Entry<String, Long> c : t.getValue().entrySet()) {
        boolean unique = schemas.of(t.getKey()).uniqueKeys().values().stream().anyMatch(k -> k.equals(List.of(c.getKey())));
        hints.add(new LookupHint(t.getKey(), c.getKey(), unique, c.getValue(), total == 0 ? 0 : (double) c.getValue() / total));
      }
    }
    hints.sort(Comparator.comparingLong(LookupHint::executions).reversed());
    return hints;
  }

  /** Per table, the equality columns of statements that do not compare its key, weighted. */
  private Map<String, Map<String, Long>> withoutKey(Map<String, String> keys) {
    Map<String, Map<String, Long>> result = new TreeMap<>();
    for (Map.Entry<Shape, Long> e : shapes) {
      Shape shape = e.getKey();
      for (String t : shape.tables()) {
        String key = keys.get(t);
        if (key == null || shape.equalities().contains(t + "." + key)) {
          continue;
        }
        for (String tc : shape.equalities()) {
          if (tc.startsWith(t + ".")) {
            result.computeIfAbsent(t, k -> new LinkedHashMap<>()).merge(tc.substring(t.length() + 1), e.getValue(), Long::sum);
          }
        }
      }
    }
    return result;
  }

  /** The proposal as a layout file: what --suggest routes with, and prints for editing. */
  static Layout layout(Proposal p) {
    Layout l = Layout.empty();
    for (KeyGroup g : p.groups()) {
      if (!g.keySpace().equals("default") || g.type() != KeyType.BIGINT) {
        l.keySpaces().put(g.keySpace(), g.type());
      }
      g.tables().forEach((t, k) -> l.tables().put(t, new Hints.Declaration(TableKind.SHARDED, k, g.keySpace(), null, null,
          p.lookups().stream().filter(h -> h.table().equals(t) && h.share() >= 0.01)
              .map(h -> new Hints.LookupSpec(h.column(), h.unique())).toList())));
    }
    p.unkeyed().forEach((t, kind) -> l.tables().put(t, new Hints.Declaration(kind, null, null, null)));
    return l;
  }

  private static void union(Map<String, String> parent, String a, String b) {
    parent.put(find(parent, a), find(parent, b));
  }

  private static String find(Map<String, String> parent, String t) {
    String p = parent.get(t);
    return p.equals(t) ? t : find(parent, p);
  }
}
