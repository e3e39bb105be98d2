package dev.shardex.cli.analyze;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;

/**
 * The analysis loop: every statement of every input is read once, in order, rebuilt into
 * transactions per connection where the input has connections, dry-run through the router and
 * counted. Nothing of a statement is kept past its turn but its digest's counters.
 */
final class Workload {
  private static final java.util.regex.Pattern NAMES_TABLE = java.util.regex.Pattern.compile("(?i)\\b(FROM|INTO|UPDATE|JOIN|TABLE)\\b");
  private final DryRun dryRun;
  private final Findings findings;

  Workload(WhatIfCluster cluster) {
    this.dryRun = new DryRun(cluster);
    this.findings = new Findings(cluster.shards());
  }

  Findings run(List<StatementSource> sources, ProgressBar progress) throws IOException, SQLException {
    for (StatementSource source : sources) {
      progress.start(source.describe(), source.size());
      source.read(this::accept, progress::at);
      progress.done();
    }
    return findings;
  }

  void accept(Logged s) {
    if (s.isQuit()) {
      findings.transactions.quit(s.connection());
      return;
    }
    Transactions.Control control = Transactions.Control.of(s.sql());
    if (control != Transactions.Control.NONE) {
      findings.transactions.control(s.connection(), control);
      findings.add(s, null, Verdict.ignored("transaction control"));
      return;
    }
    if (s.normalised() && DigestText.truncated(s.sql())) {
      findings.truncated += s.count();
      findings.add(s, null, Verdict.ignored("truncated digest text"));
      return;
    }
    DryRun.Parsed p = dryRun.parse(s);
    DigestStats d = findings.digest(p);
    String ignored = d == null ? null : d.shape.ignored();
    if (ignored == null && p.failure() != null && s.normalised() && !NAMES_TABLE.matcher(p.digest()).find()) {
      ignored = "names no table"; // a digest cut short (MariaDB does not mark it), e.g. Connector/J's long SELECT @@...
    }
    Verdict v = ignored != null ? Verdict.ignored(ignored) : dryRun.route(p);
    findings.add(s, d, v);
    findings.transactions.statement(s.connection(), v);
  }
}
