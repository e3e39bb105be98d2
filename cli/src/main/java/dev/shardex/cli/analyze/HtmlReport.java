package dev.shardex.cli.analyze;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report as one self-contained HTML page: inline CSS and SVG charts (routing mix, refusals by
 * reason, per-table bars), no script and no external resource, so it opens anywhere and can be
 * attached to a ticket. Every figure is printed from the report document and carries its path in
 * it ({@code data-fig="summary.one.count"}) and its exact value ({@code data-value}), so a test can
 * check the page against {@code --json}.
 */
final class HtmlReport {
  static final String[] COLORS = {"#2e7d32", "#f9a825", "#ef6c00", "#c62828"};

  private final StringBuilder h = new StringBuilder();
  private final Map<String, Object> r;

  private HtmlReport(Map<String, Object> report) {
    this.r = report;
  }

  static String render(Map<String, Object> report) {
    return new HtmlReport(report).page();
  }

  private String page() {
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>shardex analyze</title><style>")
        .append("body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}")
        .append("table{border-collapse:collapse;margin:.5em 0}td,th{border-bottom:1px solid #ddd;padding:3px 10px;text-align:left}")
        .append("td.n{text-align:right}code{font-size:12px;background:#f4f4f4}h2{margin-top:1.6em}.score{font-size:40px;font-weight:bold}")
        .append("</style></head><body>\n<h1>shardex analyze</h1>\n");
    header();
    mix();
    refusals();
    tables();
    transactions();
    digests("Top refused digests", "top_refused");
    digests("Top scattering digests", "top_scattering");
    suggestions();
    hotKeys();
    return h.append("</body></html>\n").toString();
  }

  private void header() {
    h.append("<p>").append(fig("statements", Figures.count(Doc.count(r.get("statements"))))).append(" statements from ")
        .append(esc(String.join(", ", Doc.list(r.get("inputs")).stream().map(String::valueOf).toList())))
        .append(" over ").append(fig("shards", String.valueOf(r.get("shards")))).append(" shards.</p>\n")
        .append("<p>Readiness score <span class=\"score\">").append(fig("readiness.score", String.valueOf(Doc.at(r, "readiness.score"))))
        .append("</span> / 100 &mdash; <code>").append(esc(String.valueOf(Doc.at(r, "readiness.formula")))).append("</code></p>\n");
  }

  private void mix() {
    h.append("<h2>Routing mix</h2>\n");
    double[] shares = new double[Route.SCORED.length];
    for (int i = 0; i < shares.length; i++) {
      shares[i] = Doc.share(Doc.at(r, "summary." + Route.SCORED[i].json() + ".share"));
    }
    stackedBar(shares, 800, 36);
    h.append("<table><tr><th>route</th><th>statements</th><th>share</th><th>time share</th></tr>\n");
    for (Route route : Route.values()) {
      String p = "summary." + route.json();
      h.append("<tr><td>").append(swatch(route)).append(esc(route.label())).append("</td><td class=\"n\">")
          .append(fig(p + ".count", Figures.count(Doc.count(Doc.at(r, p + ".count"))))).append("</td><td class=\"n\">")
          .append(route == Route.IGNORED ? "-" : fig(p + ".share", Figures.percent(Doc.share(Doc.at(r, p + ".share")))))
          .append("</td><td class=\"n\">").append(Doc.at(r, p + ".time_share") == null ? "-"
              : fig(p + ".time_share", Figures.percent(Doc.share(Doc.at(r, p + ".time_share"))))).append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  private void refusals() {
    List<Object> list = Doc.list(r.get("refusals"));
    h.append("<h2>Refusals by reason</h2>\n");
    if (list.isEmpty()) {
      h.append("<p>None.</p>\n");
      return;
    }
    long max = list.stream().mapToLong(o -> Doc.count(Doc.map(o).get("count"))).max().orElse(1);
    h.append("<svg width=\"800\" height=\"").append(list.size() * 26 + 4).append("\" role=\"img\" aria-label=\"refusals by reason\">");
    for (int i = 0; i < list.size(); i++) {
      Map<String, Object> e = Doc.map(list.get(i));
      int w = (int) Math.max(2, 560 * Doc.count(e.get("count")) / (double) max);
      h.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"%d\">%s</text><rect x=\"90\" y=\"%d\" width=\"%d\" height=\"18\" fill=\"%s\"/>"
          + "<text x=\"%d\" y=\"%d\">%s</text>", i * 26 + 17, esc(String.valueOf(e.get("id"))), i * 26 + 4, w, COLORS[3],
          96 + w, i * 26 + 17, Figures.count(Doc.count(e.get("count")))));
    }
    h.append("</svg>\n<table><tr><th>id</th><th>statements</th><th>share</th><th>fix</th><th>example</th></tr>\n");
    for (int i = 0; i < list.size(); i++) {
      Map<String, Object> e = Doc.map(list.get(i));
      h.append("<tr><td>").append(esc(String.valueOf(e.get("id")))).append("</td><td class=\"n\">")
          .append(fig("refusals." + i + ".count", Figures.count(Doc.count(e.get("count"))))).append("</td><td class=\"n\">")
          .append(fig("refusals." + i + ".share", Figures.percent(Doc.share(e.get("share"))))).append("</td><td>")
          .append(esc(String.valueOf(e.get("fix")))).append("</td><td><code>").append(esc(String.valueOf(e.get("example"))))
          .append("</code></td></tr>\n");
    }
    h.append("</table>\n");
  }

  private void tables() {
    List<Object> list = Doc.list(r.get("tables"));
    h.append("<h2>Per table</h2>\n<svg width=\"800\" height=\"").append(list.size() * 26 + 4)
        .append("\" role=\"img\" aria-label=\"routes per table\">");
    long max = list.stream().mapToLong(o -> Doc.count(Doc.map(o).get("scored"))).max().orElse(1);
    for (int i = 0; i < list.size(); i++) {
      Map<String, Object> t = Doc.map(list.get(i));
      h.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"%d\">%s</text>", i * 26 + 17, esc(String.valueOf(t.get("table")))));
      double x = 160;
      for (int k = 0; k < Route.SCORED.length; k++) {
        double w = 600.0 * Doc.count(t.get(Route.SCORED[k].json())) / Math.max(1, max);
        h.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"18\" fill=\"%s\"/>", x, i * 26 + 4, w,
            COLORS[k]));
        x += w;
      }
    }
    h.append("</svg>\n<table><tr><th>table</th>");
    for (Route route : Route.SCORED) {
      h.append("<th>").append(swatch(route)).append(esc(route.label())).append("</th>");
    }
    h.append("</tr>\n");
    for (int i = 0; i < list.size(); i++) {
      Map<String, Object> t = Doc.map(list.get(i));
      h.append("<tr><td>").append(esc(String.valueOf(t.get("table")))).append("</td>");
      for (Route route : Route.SCORED) {
        h.append("<td class=\"n\">").append(fig("tables." + i + "." + route.json(), Figures.count(Doc.count(t.get(route.json())))))
            .append("</td>");
      }
      h.append("</tr>\n");
    }
    h.append("</table>\n");
  }

  private void transactions() {
    h.append("<h2>Transactions</h2>\n<p>").append(fig("transactions.count", Figures.count(Doc.count(Doc.at(r, "transactions.count")))))
        .append(" transactions rebuilt from connection ids; ")
        .append(fig("transactions.spanning", Figures.count(Doc.count(Doc.at(r, "transactions.spanning")))))
        .append(" span shards (").append(fig("transactions.spanning_share", Figures.percent(Doc.share(Doc.at(r,
            "transactions.spanning_share"))))).append("). ").append(esc(String.valueOf(Doc.at(r, "transactions.if_atomic"))))
        .append("; ").append(esc(String.valueOf(Doc.at(r, "transactions.if_single")))).append(".</p>\n");
  }

  private void digests(String title, String key) {
    List<Object> list = Doc.list(r.get(key));
    if (list.isEmpty()) {
      return;
    }
    h.append("<h2>").append(esc(title)).append("</h2>\n<table><tr><th>statements</th><th>digest</th><th>fix</th></tr>\n");
    for (int i = 0; i < list.size(); i++) {
      Map<String, Object> d = Doc.map(list.get(i));
      h.append("<tr><td class=\"n\">").append(fig(key + "." + i + ".count", Figures.count(Doc.count(d.get("count")))))
          .append("</td><td><code>").append(esc(String.valueOf(d.get("digest")))).append("</code>")
          .append(d.get("id") == null ? "" : " <b>" + esc(String.valueOf(d.get("id"))) + "</b>").append("</td><td>")
          .append(esc(String.valueOf(d.get("fix")))).append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  private void suggestions() {
    h.append("<h2>Suggested keys</h2>\n<ul>\n");
    for (Object o : Doc.list(r.get("suggested_keys"))) {
      Map<String, Object> k = Doc.map(o);
      h.append("<li>").append(k.containsKey("keyspace") ? "key space <b>" + esc(String.valueOf(k.get("keyspace"))) + "</b> ("
          + k.get("type") + "): " + esc(String.valueOf(k.get("tables"))) : esc(k.get("table") + ": " + k.get("kind"))).append("</li>\n");
    }
    h.append("</ul>\n<h2>Suggested lookup indexes</h2>\n<ul>\n");
    for (Object o : Doc.list(r.get("suggested_lookups"))) {
      Map<String, Object> l = Doc.map(o);
      h.append("<li><code>").append(esc(l.get("table") + "." + l.get("column"))).append("</code>")
          .append(Boolean.TRUE.equals(l.get("unique")) ? " unique" : "").append(": ")
          .append(Figures.count(Doc.count(l.get("statements")))).append(" statements</li>\n");
    }
    h.append("</ul>\n");
  }

  private void hotKeys() {
    h.append("<h2>Hot keys</h2>\n<p>Statements per shard: ").append(esc(String.valueOf(r.get("per_shard")))).append("</p>\n<ul>\n");
    for (Object o : Doc.list(r.get("hot_keys"))) {
      Map<String, Object> k = Doc.map(o);
      h.append("<li><code>").append(esc(String.valueOf(k.get("key")))).append("</code>: ")
          .append(Figures.count(Doc.count(k.get("count")))).append(" (").append(Figures.percent(Doc.share(k.get("share"))))
          .append(")</li>\n");
    }
    h.append("</ul>\n");
  }

  private void stackedBar(double[] shares, int width, int height) {
    h.append("<svg width=\"").append(width).append("\" height=\"").append(height).append("\" role=\"img\" aria-label=\"routing mix\">");
    double x = 0;
    for (int i = 0; i < shares.length; i++) {
      double w = width * shares[i];
      h.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s %s</title></rect>",
          x, w, height, COLORS[i], Route.SCORED[i].label(), Figures.percent(shares[i])));
      x += w;
    }
    h.append("</svg>\n");
  }

  private static String swatch(Route route) {
    int i = route.ordinal();
    return i >= COLORS.length ? "" : "<svg width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\" fill=\"" + COLORS[i] + "\"/></svg> ";
  }

  /** A figure: its path in the report and exact value as attributes, its printed form as text. */
  private String fig(String path, String shown) {
    return "<span data-fig=\"" + path + "\" data-value=\"" + esc(String.valueOf(Doc.at(r, path))) + "\">" + esc(shown) + "</span>";
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
