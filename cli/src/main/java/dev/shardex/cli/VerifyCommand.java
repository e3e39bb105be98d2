package dev.shardex.cli;

import dev.shardex.directory.move.LookupVerifier;
import dev.shardex.directory.move.Verifier;
import dev.shardex.directory.move.Verifier.Finding;
import dev.shardex.directory.move.Verifier.Report;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "verify", description = {"Check the shards against the directory (exit code 2 if anything is wrong).",
    "Finds orphans (rows on a shard that does not own their key), rows whose key has no owner,",
    "GLOBAL tables whose copies differ between shards, ids of sequence-filled columns on more than one shard,",
    "and lookup indexes with missing, extra or duplicate entries (repaired by 'shardex lookups verify T C --repair')."})
final class VerifyCommand extends CliCommand {
  @Option(names = "--repair", description = "Delete orphans whose owner holds an identical copy; report the rest (lookups too).")
  boolean repair;

  @Override
  public Integer call() throws Exception {
    try (CliSession s = session()) {
      Report r = new Verifier(s.store(), s.shards()).verify(repair, out().progress("verifying"));
      List<List<Object>> rows = new ArrayList<>();
      List<Object> orphans = new ArrayList<>();
      List<Object> unowned = new ArrayList<>();
      for (Finding f : r.orphans()) {
        rows.add(java.util.Arrays.asList("orphan", f.table(), f.shard(), f.key(), f.owner(), f.rows(), f.outcome()));
        orphans.add(json(f));
      }
      for (Finding f : r.unowned()) {
        rows.add(java.util.Arrays.asList("unowned", f.table(), f.shard(), f.key(), null, f.rows(), f.outcome()));
        unowned.add(json(f));
      }
      List<Object> globals = new ArrayList<>();
      r.globals().forEach(g -> {
        rows.add(java.util.Arrays.asList("global", g.table(), g.shardsByChecksum().values(), null, null, null, "copies differ: "
            + g.shardsByChecksum()));
        globals.add(Json.obj("table", g.table(), "shardsByChecksum", g.shardsByChecksum()));
      });
      List<Object> duplicates = new ArrayList<>();
      r.duplicates().forEach(d -> {
        rows.add(java.util.Arrays.asList("duplicate id", d.table(), d.shards(), d.keys(), null, null,
            d.column() + " = " + d.id() + " on shards " + d.shards()));
        duplicates.add(Json.obj("table", d.table(), "column", d.column(), "id", d.id(), "shards", d.shards(), "keys", d.keys()));
      });
      List<Object> lookups = new ArrayList<>();
      long unhealthy = 0;
      for (LookupVerifier.Report l : r.lookups()) {
        lookups.add(LookupHealth.json(l));
        if (!l.clean()) {
          unhealthy++;
          rows.add(java.util.Arrays.asList("lookup", l.lookup().table(), null, null, null, null, LookupHealth.summary(l, false)));
        }
      }
      long lookupsWrong = unhealthy;
      out().result(Json.obj("clean", r.clean(), "orphans", orphans, "unowned", unowned,
          "orphanCount", r.orphanCount(), "unownedCount", r.unownedCount(), "globals", globals,
          "duplicateIds", duplicates, "repaired", r.repaired(), "lookups", lookups), () -> {
        if (!rows.isEmpty()) {
          out().table(List.of("PROBLEM", "TABLE", "SHARD", "KEY", "OWNER", "ROWS", "DETAIL"), rows);
        }
        out().line(r.orphanCount() + " orphan(s)" + (repair ? " (" + r.repaired() + " repaired)" : "") + ", "
            + r.unownedCount() + " unowned, " + r.globals().size() + " GLOBAL table(s) differing, "
            + r.duplicates().size() + " id(s) on more than one shard, " + lookupsWrong + " of " + r.lookups().size()
            + " lookup(s) with missing, extra or duplicate entries"
            + (r.clean() ? ": OK" : ""));
      });
      return r.clean() ? ShardexCli.OK : ShardexCli.REFUSED;
    }
  }

  private static Object json(Finding f) {
    return Json.obj("table", f.table(), "shard", f.shard(), "key", f.key(), "owner", f.owner(), "rows", f.rows(), "outcome", f.outcome());
  }
}
