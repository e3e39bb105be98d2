package dev.shardex.cli.analyze;

import dev.shardex.cli.Json;
import dev.shardex.cli.ShardexCli;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code shardex analyze}: what an application's real statements would do on N shards, before it
 * switches. Every statement goes through the driver's analyzer and router as a dry run over a
 * what-if cluster ({@link WhatIfCluster}); nothing is sent to the application's servers but reads of
 * their schema or digest table.
 */
@Command(name = "analyze", sortOptions = false,
    description = {"What the application's real statements would do on Shardex, before it switches: the share that "
        + "would go to one shard, several, all, or be refused (with the fix), per table and per transaction, the top refused "
        + "and scattering digests, a suggested key per table group, lookup indexes, hot keys and a readiness score. Needs no "
        + "shards: it routes over a what-if cluster of --shards N (an embedded MariaDB holds its directory and the empty schema).",
        "Score: " + Readiness.FORMULA},
    footer = {"", "Layout file: one line per table in the words of a table comment, e.g.",
        "  posts sharded key=author_id lookup=slug unique",
        "  countries global",
        "  keyspace users STRING",
        "Source credentials: the URL's user/password, else $SHARDEX_SOURCE_USER / $SHARDEX_SOURCE_PASSWORD.",
        "Exit codes: 0 ok, 1 usage, 2 score under --fail-under (or a bad declaration), 4 input unreadable."})
public final class AnalyzeCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--general", paramLabel = "FILE", description = "A MySQL/MariaDB general query log (general_log=1).")
  List<Path> general = new ArrayList<>();

  @Option(names = "--slow", paramLabel = "FILE", description = "A slow query log (long_query_time=0 for every statement).")
  List<Path> slow = new ArrayList<>();

  @Option(names = "--pt-query-digest", paramLabel = "FILE", description = "pt-query-digest --output json.")
  List<Path> ptqd = new ArrayList<>();

  @Option(names = "--digest-url", paramLabel = "JDBC_URL",
      description = "Read performance_schema.events_statements_summary_by_digest live from this server.")
  String digestUrl;

  @Option(names = "--digest-schema", paramLabel = "DB", description = "Keep only this database's digests.")
  String digestSchema;

  @Option(names = "--schema", paramLabel = "FILE", description = "The schema: a mysqldump --no-data file (CREATE TABLEs).")
  Path schemaFile;

  @Option(names = "--schema-url", paramLabel = "JDBC_URL", description = "The schema: read live from this database.")
  String schemaUrl;

  @Option(names = "--layout", paramLabel = "FILE", description = "The proposed layout (declarations file; see below).")
  Path layoutFile;

  @Option(names = "--suggest", description = "Propose a layout from the statements (tables --layout leaves out) and route with it.")
  boolean suggest;

  @Option(names = "--shards", paramLabel = "N", defaultValue = "4", description = "Shards of the what-if cluster (default 4).")
  int shards;

  @Option(names = "--scatter-writes", paramLabel = "deny|allow", defaultValue = "deny",
      description = "As shardex.scatterWrites: UPDATE/DELETE without the key refused (deny) or on every shard.")
  String scatterWrites;

  @Option(names = "--html", paramLabel = "FILE", description = "Also write a self-contained HTML report with charts.")
  Path html;

  @Option(names = "--fail-under", paramLabel = "SCORE", description = "Exit 2 when the readiness score is below SCORE (for CI).")
  Integer failUnder;

  @Option(names = "--show-literals", description = "Print hot keys as they are (default: a short hash; keys are often user ids).")
  boolean showLiterals;

  @Override
  public Integer call() throws Exception {
    List<StatementSource> sources = sources();
    Layout given = layoutFile == null ? Layout.empty() : Layout.read(existing(layoutFile));
    List<String> schema = schemaFile != null ? SchemaDump.createTables(existing(schemaFile))
        : schemaUrl != null ? LiveSchema.createTables(source(schemaUrl).url(), source(schemaUrl).credentials()) : List.of();
    Layout layout = suggest ? suggested(sources, schema, given) : given;
    Map<String, Object> report = analyze(sources, schema, layout);
    print(report);
    int score = (int) Doc.count(Doc.at(report, "readiness.score"));
    if (failUnder != null && score < failUnder) {
      err().println("readiness score " + score + " is under --fail-under " + failUnder);
      err().flush();
      return ShardexCli.REFUSED;
    }
    return ShardexCli.OK;
  }

  private Map<String, Object> analyze(List<StatementSource> sources, List<String> schema, Layout layout) throws Exception {
    try (WhatIfCluster cluster = WhatIfCluster.open(shards, schema, layout, scatterWrites.equals("allow"))) {
      long start = System.nanoTime();
      Findings f = new Workload(cluster).run(sources, progress());
      double seconds = (System.nanoTime() - start) / 1e9;
      Suggester.Proposal p = new Suggester(f, cluster::schema, cluster::shardKey).propose();
      Report.Context c = new Report.Context(sources.stream().map(StatementSource::describe).toList(), shards, layout, suggest,
          showLiterals, seconds, cluster.schemaErrors());
      return Report.build(f, p, cluster, c);
    }
  }

  /** The first pass of --suggest: usage only, then the proposal with the given layout's tables kept. */
  private Layout suggested(List<StatementSource> sources, List<String> schema, Layout given) throws Exception {
    try (WhatIfCluster cluster = WhatIfCluster.open(shards, schema, given, scatterWrites.equals("allow"))) {
      Findings f = new Workload(cluster).run(sources, progress());
      return Suggester.layout(new Suggester(f, cluster::schema, cluster::shardKey).propose()).overriddenBy(given);
    }
  }

  private void print(Map<String, Object> report) throws java.io.IOException {
    PrintWriter out = spec.commandLine().getOut();
    if (Boolean.TRUE.equals(spec.root().findOption("--json").getValue())) {
      out.println(Json.write(report));
    } else {
      new TextReport(out, report).print();
    }
    out.flush();
    if (html != null) {
      Files.writeString(html, HtmlReport.render(report));
      err().println("HTML report: " + html.toAbsolutePath());
      err().flush();
    }
  }

  private List<StatementSource> sources() {
    if (shards < 2) {
      throw usage("--shards must be 2 or more (got " + shards + ")");
    }
    if (!scatterWrites.equals("deny") && !scatterWrites.equals("allow")) {
      throw usage("--scatter-writes is deny or allow (got " + scatterWrites + ")");
    }
    if (schemaFile != null && schemaUrl != null) {
      throw usage("give the schema once: --schema FILE or --schema-url URL");
    }
    List<StatementSource> sources = new ArrayList<>();
    general.forEach(p -> sources.add(new GeneralLog(existing(p))));
    slow.forEach(p -> sources.add(new SlowLog(existing(p))));
    ptqd.forEach(p -> sources.add(new PtQueryDigest(existing(p))));
    if (digestUrl != null) {
      SourceUrl s = source(digestUrl);
      sources.add(new DigestTable(s.url(), s.credentials(), digestSchema));
    }
    if (sources.isEmpty()) {
      throw usage("no statements to analyze: give --general, --slow, --pt-query-digest or --digest-url");
    }
    return sources;
  }

  private SourceUrl source(String url) {
    try {
      return SourceUrl.of(url, ((ShardexCli) spec.root().userObject()).environment());
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
  }

  private Path existing(Path p) {
    if (!Files.isReadable(p)) {
      throw usage("cannot read " + p + ": no such file, or not readable");
    }
    return p;
  }

  private ProgressBar progress() {
    return new ProgressBar(err(), System.console() != null);
  }

  private PrintWriter err() {
    return spec.commandLine().getErr();
  }

  private CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }
}
