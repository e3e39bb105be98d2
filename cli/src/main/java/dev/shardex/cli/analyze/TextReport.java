package dev.shardex.cli.analyze;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/** The terminal summary of a {@link Report}: the routing mix first, then what to fix, most used first. */
final class TextReport {
  private final PrintWriter out;
  private final Map<String, Object> r;

  TextReport(PrintWriter out, Map<String, Object> report) {
    this.out = out;
    this.r = report;
  }

  void print() {
    summary();
    refusals();
    tables();
    transactions();
    digests("Top refused digests", "top_refused", "refused");
    digests("Top scattering digests", "top_scattering", "on several/all shards");
    keys();
    lookups();
    hotKeys();
    schemaErrors();
    out.flush();
  }

  private void schemaErrors() {
    List<Object> errors = Doc.list(r.get("schema_errors"));
    if (!errors.isEmpty()) {
      out.printf("%nSchema statements the server refused (their tables are unknown to the dry run)%n");
      errors.forEach(e -> out.println("  " + e));
    }
  }

  private void summary() {
    Map<String, Object> s = Doc.map(r.get("summary"));
    out.printf("shardex analyze: %s statement(s) from %s, over %s shards (%s distinct digests)%n",
        Figures.count(Doc.count(r.get("statements"))), String.join(", ", Doc.list(r.get("inputs")).stream().map(String::valueOf).toList()),
        r.get("shards"), r.get("digests"));
    out.printf(java.util.Locale.ROOT, "read in %.1f s (%s statements/s)%n", Doc.share(Doc.at(r, "run.seconds")),
        Figures.count(Doc.count(Doc.at(r, "run.statements_per_second"))));
    out.printf("%nReadiness score: %s / 100   (%s)%n%n", Doc.at(r, "readiness.score"), Doc.at(r, "readiness.formula"));
    out.println("ROUTE           STATEMENTS  SHARE   TIME SHARE");
    for (Route route : Route.values()) {
      Map<String, Object> e = Doc.map(s.get(route.json()));
      out.printf("%-15s %10s  %-6s  %s%n", route.label(), Figures.count(Doc.count(e.get("count"))),
          route == Route.IGNORED ? "-" : Figures.percent(Doc.share(e.get("share"))),
          e.containsKey("time_share") ? Figures.percent(Doc.share(e.get("time_share"))) : "-");
    }
  }

  private void refusals() {
    List<Object> list = Doc.list(r.get("refusals"));
    if (list.isEmpty()) {
      return;
    }
    out.printf("%nRefusals by reason%n");
    for (Object o : list) {
      Map<String, Object> e = Doc.map(o);
      out.printf("  %s  %s (%s)%n    fix: %s%n    e.g. %s%n", e.get("id"), Figures.count(Doc.count(e.get("count"))),
          Figures.percent(Doc.share(e.get("share"))), e.get("fix"), clip(e.get("example")));
    }
  }

  private void tables() {
    out.printf("%nPer table%n%-20s %12s %12s %12s %12s  %s%n", "TABLE", "ONE", "SEVERAL", "ALL", "REFUSED",
        "TIME ONE/SEVERAL/ALL/REFUSED");
    for (Object o : Doc.list(r.get("tables"))) {
      Map<String, Object> t = Doc.map(o);
      out.printf("%-20s %12s %12s %12s %12s  %s%n", t.get("table"), Figures.count(Doc.count(t.get("one"))),
          Figures.count(Doc.count(t.get("several"))), Figures.count(Doc.count(t.get("all"))),
          Figures.count(Doc.count(t.get("refused"))), timeShares(t.get("time_share")));
    }
  }

  /** A table's shares of statement time by route, where the input times statements; "-" where it does not. */
  private static String timeShares(Object shares) {
    if (shares == null) {
      return "-";
    }
    Map<String, Object> m = Doc.map(shares);
    StringBuilder s = new StringBuilder();
    for (Route route : Route.SCORED) {
      s.append(s.length() == 0 ? "" : " / ").append(Figures.percent(Doc.share(m.get(route.json()))));
    }
    return s.toString();
  }

  private void transactions() {
    Map<String, Object> t = Doc.map(r.get("transactions"));
    if (Doc.count(t.get("count")) == 0) {
      out.printf("%nTransactions: none rebuilt (only the general and slow logs have connection ids)%n");
      return;
    }
    StringBuilder by = new StringBuilder();
    Doc.map(t.get("by_shards")).forEach((n, c) -> by.append(by.length() == 0 ? "" : ", ").append(n).append(": ")
        .append(Figures.count(Doc.count(c))));
    out.printf("%nTransactions: %s, %s span shards (%s); by shards touched %s%n  %s;%n  %s%n",
        Figures.count(Doc.count(t.get("count"))), Figures.count(Doc.count(t.get("spanning"))),
        Figures.percent(Doc.share(t.get("spanning_share"))), by, t.get("if_atomic"), t.get("if_single"));
  }

  private void digests(String title, String key, String what) {
    List<Object> list = Doc.list(r.get(key));
    if (list.isEmpty()) {
      return;
    }
    out.printf("%n%s%n", title);
    for (Object o : list) {
      Map<String, Object> d = Doc.map(o);
      out.printf("  %s x %s%s: %s%n    fix: %s%n", Figures.count(Doc.count(d.get("count"))), what,
          d.get("id") == null ? "" : " (" + d.get("id") + ")", clip(d.get("digest")), d.get("fix"));
    }
  }

  private void keys() {
    out.printf("%nSuggested keys (most used equality column; tables of one key space co-locate)%n");
    for (Object o : Doc.list(r.get("suggested_keys"))) {
      Map<String, Object> k = Doc.map(o);
      if (k.containsKey("keyspace")) {
        out.printf("  key space %s (%s), %s statements: %s%n", k.get("keyspace"), k.get("type"),
            Figures.count(Doc.count(k.get("statements"))), k.get("tables"));
      } else {
        out.printf("  %s: %s (no equality filter)%n", k.get("table"), k.get("kind"));
      }
    }
  }

  private void lookups() {
    List<Object> list = Doc.list(r.get("suggested_lookups"));
    if (list.isEmpty()) {
      return;
    }
    out.printf("%nSuggested lookup indexes (filtered by equality without the key)%n");
    for (Object o : list) {
      Map<String, Object> l = Doc.map(o);
      out.printf("  %s.%s%s: %s statements (%s of the table's)%n", l.get("table"), l.get("column"),
          Boolean.TRUE.equals(l.get("unique")) ? " unique" : "", Figures.count(Doc.count(l.get("statements"))),
          Figures.percent(Doc.share(l.get("share"))));
    }
  }

  private void hotKeys() {
    List<Object> list = Doc.list(r.get("hot_keys"));
    if (list.isEmpty()) {
      return;
    }
    out.printf("%nHot keys (of one-shard statements by key; statements per shard %s)%n", r.get("per_shard"));
    for (Object o : list) {
      Map<String, Object> k = Doc.map(o);
      out.printf("  %s  %s (%s)%n", k.get("key"), Figures.count(Doc.count(k.get("count"))), Figures.percent(Doc.share(k.get("share"))));
    }
  }

  private static String clip(Object text) {
    String s = String.valueOf(text).replaceAll("\\s+", " ");
    return s.length() > 160 ? s.substring(0, 157) + "..." : s;
  }
}
