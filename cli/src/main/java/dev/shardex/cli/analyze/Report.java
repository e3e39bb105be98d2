package dev.shardex.cli.analyze;

import dev.shardex.cli.Json;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report as one document (ordered maps and lists): what {@code --json} prints, and what the
 * terminal summary and the HTML report render, so the three always show the same figures.
 */
final class Report {
  static final int TOP = 10;

  private Report() {}

  record Context(List<String> inputs, int shards, Layout layout, boolean suggested, boolean showLiterals,
      double seconds, List<String> schemaErrors) {}

  static Map<String, Object> build(Findings f, Suggester.Proposal p, WhatIfCluster cluster, Context c) throws SQLException {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("inputs", c.inputs());
    r.put("shards", c.shards());
    r.put("statements", f.statements);
    r.put("summary", f.total.json());
    r.put("readiness", Json.obj("score", Readiness.score(f.total, f.transactions), "formula", Readiness.FORMULA));
    r.put("refusals", refusals(f));
    r.put("tables", tables(f));
    r.put("transactions", transactions(f));
    r.put("top_refused", topRefused(f));
    r.put("top_scattering", topScattering(f, p, cluster));
    r.put("suggested_keys", keys(p));
    r.put("suggested_lookups", lookups(p));
    r.put("hot_keys", hotKeys(f, c.showLiterals()));
    r.put("per_shard", perShard(f));
    r.put("ignored", f.ignored);
    r.put("truncated_digests", f.truncated);
    r.put("digests", f.digests.size());
    r.put("schema_errors", c.schemaErrors());
    r.put("layout", Json.obj("suggested", c.suggested(), "text", c.layout().toText()));
    r.put("run", Json.obj("seconds", Figures.round(c.seconds()),
        "statements_per_second", c.seconds() <= 0 ? 0 : Math.round(f.statements / c.seconds())));
    return r;
  }

  private static List<Object> refusals(Findings f) {
    List<Object> list = new ArrayList<>();
    long scored = f.total.scored();
    f.refusals().forEach((id, n) -> {
      DigestStats example = f.digests.values().stream().filter(d -> id.equals(d.reason))
          .max(Comparator.comparingLong(d -> d.tally.count(Route.REFUSED))).orElseThrow();
      list.add(Json.obj("id", id, "count", n, "share", Figures.round(scored == 0 ? 0 : (double) n / scored),
          "fix", Fixes.of(id), "example", example.text, "message", example.message));
    });
    return list;
  }

  private static List<Object> tables(Findings f) {
    List<Object> list = new ArrayList<>();
    f.tables.forEach((name, t) -> {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("table", name);
      for (Route r : Route.values()) {
        row.put(r.json(), t.count(r));
      }
      row.put("scored", t.scored());
      if (t.hasTime()) { // the slow log, pt-query-digest and the digest table time statements
        Map<String, Object> time = new LinkedHashMap<>();
        for (Route r : Route.SCORED) {
          time.put(r.json(), Figures.round(t.timeShare(r)));
        }
        row.put("seconds", Figures.round(t.scoredSeconds()));
        row.put("time_share", time);
      }
      list.add(row);
    });
    return list;
  }

  private static Map<String, Object> transactions(Findings f) {
    Transactions tx = f.transactions;
    long[] by = tx.byShards();
    return Json.obj("count", tx.count(), "spanning", tx.spanning(),
        "spanning_share", Figures.round(tx.count() == 0 ? 0 : (double) tx.spanning() / tx.count()),
        "by_shards", Json.obj("1", by[0], "2", by[1], "3", by[2], "4+", by[3]),
        "if_single", "shardex.transactions=single refuses the " + tx.spanning() + " spanning transaction(s) (SHX1301)",
        "if_atomic", "shardex.transactions=atomic (the default) commits them as XA branches on each shard");
  }

  private static List<Object> topRefused(Findings f) {
    return f.digests.values().stream().filter(d -> d.tally.count(Route.REFUSED) > 0)
        .sorted(Comparator.comparingLong((DigestStats d) -> d.tally.count(Route.REFUSED)).reversed()).limit(TOP)
        .map(d -> (Object) Json.obj("digest", d.text, "count", d.tally.count(Route.REFUSED), "id", d.reason,
            "fix", Fixes.of(d.reason), "message", d.message))
        .toList();
  }

  private static List<Object> topScattering(Findings f, Suggester.Proposal p, WhatIfCluster cluster) throws SQLException {
    List<Object> list = new ArrayList<>();
    List<DigestStats> top = f.digests.values().stream().filter(d -> d.scattering() > 0)
        .sorted(Comparator.comparingLong(DigestStats::scattering).reversed()).limit(TOP).toList();
    for (DigestStats d : top) {
      list.add(Json.obj("digest", d.text, "count", d.scattering(), "all", d.tally.count(Route.ALL),
          "several", d.tally.count(Route.SEVERAL), "fix", scatterFix(d, p, cluster)));
    }
    return list;
  }

  /** A scattering statement's fix: its table's key, else a lookup on a column it filters by, else the IN list's cost. */
  private static String scatterFix(DigestStats d, Suggester.Proposal p, WhatIfCluster cluster) throws SQLException {
    for (String t : d.shape.tables()) {
      TableDef def = cluster.directory().table(t);
      if (def == null || def.kind() != TableKind.SHARDED || d.shape.equalities().contains(t + "." + def.keyColumn())) {
        continue;
      }
      for (Suggester.LookupHint h : p.lookups()) {
        if (h.table().equals(t) && d.shape.equalities().contains(t + "." + h.column())) {
          return "declare a lookup on " + t + "." + h.column() + " (lookup=" + h.column() + (h.unique() ? " unique" : "")
              + ") to route it by that column, or add " + def.keyColumn() + " = ?";
        }
      }
      return "add " + t + "." + def.keyColumn() + " = ? to route it to one shard";
    }
    return keyed(d, cluster) ? "a list of keys on several shards: each shard gets only its keys (fine for short lists;"
        + " keys that belong together can share one key, e.g. the parent's)" : "co-locate the joined tables (one key space, "
        + "joined on the key) or declare the small one GLOBAL";
  }

  /** Whether the digest names a SHARDED table's key: a list of keys, not a missing key. */
  private static boolean keyed(DigestStats d, WhatIfCluster cluster) throws SQLException {
    for (String t : d.shape.tables()) {
      TableDef def = cluster.directory().table(t);
      if (def != null && def.kind() == TableKind.SHARDED && d.shape.equalities().contains(t + "." + def.keyColumn())) {
        return true;
      }
    }
    return false;
  }

  private static List<Object> keys(Suggester.Proposal p) {
    List<Object> list = new ArrayList<>();
    for (Suggester.KeyGroup g : p.groups()) {
      list.add(Json.obj("keyspace", g.keySpace(), "type", g.type().name(), "tables", g.tables(), "statements", g.uses()));
    }
    p.unkeyed().forEach((t, kind) -> list.add(Json.obj("table", t, "kind", kind.name())));
    return list;
  }

  private static List<Object> lookups(Suggester.Proposal p) {
    return p.lookups().stream().limit(TOP).map(h -> (Object) Json.obj("table", h.table(), "column", h.column(),
        "unique", h.unique(), "statements", h.executions(), "share", Figures.round(h.share()))).toList();
  }

  private static List<Object> hotKeys(Findings f, boolean literals) {
    long total = f.hotKeys.total();
    return f.hotKeys.top(TOP).stream().map(e -> (Object) Json.obj("key", literals ? e.getKey() : hash(e.getKey()),
        "count", e.getValue(), "share", Figures.round(total == 0 ? 0 : (double) e.getValue() / total))).toList();
  }

  private static List<Object> perShard(Findings f) {
    List<Object> list = new ArrayList<>();
    for (long n : f.perShard) {
      list.add(n);
    }
    return list;
  }

  /** A key's printable stand-in: the key space and 8 hex digits of its SHA-256 (keys are often user ids). */
  static String hash(Object key) {
    String s = String.valueOf(key);
    int colon = s.indexOf(':');
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
      return s.substring(0, Math.max(0, colon)) + ":#" + HexFormat.of().formatHex(h, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
