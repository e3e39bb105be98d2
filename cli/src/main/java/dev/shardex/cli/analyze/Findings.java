package dev.shardex.cli.analyze;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything counted over the inputs: the routing mix overall and per table, each digest's
 * routes and refusal, what was not routed and why, statements per shard, hot keys and the
 * transactions. Memory is bounded by the number of distinct digests (capped at {@link #MAX_DIGESTS};
 * beyond it executions still count in the totals), never by the size of the log.
 */
final class Findings {
  static final int MAX_DIGESTS = 50_000;

  final Tally total = new Tally();
  final Map<String, Tally> tables = new TreeMap<>();
  final Map<String, DigestStats> digests = new HashMap<>();
  final Map<String, Long> ignored = new TreeMap<>();
  final long[] perShard;
  final HotKeys hotKeys = new HotKeys(1_000);
  final Transactions transactions;
  long statements;
  long truncated;
  long overflow;

  Findings(int shards) {
    perShard = new long[shards];
    transactions = new Transactions(shards);
  }

  /** The digest's stats, made on first sight (null once the cap is reached). */
  DigestStats digest(DryRun.Parsed p) {
    DigestStats d = digests.get(p.digest());
    if (d == null && digests.size() < MAX_DIGESTS) {
      Shape shape = p.template() == null ? Shape.unparsed() : Shape.of(p.template(), p.digest());
      d = new DigestStats(p.digest(), p.template(), shape);
      digests.put(p.digest(), d);
    }
    return d;
  }

  void add(Logged s, DigestStats d, Verdict v) {
    statements += s.count();
    total.add(v.route(), s.count(), s.seconds());
    if (d != null) {
      d.add(v, s.count(), s.seconds());
      for (String t : d.shape.tables()) {
        tables.computeIfAbsent(t, k -> new Tally()).add(v.route(), s.count(), s.seconds());
      }
    } else if (v.route() != Route.IGNORED) {
      overflow += s.count(); // past the digest cap: in the totals, not in any digest
    }
    if (v.route() == Route.IGNORED) {
      ignored.merge(v.message(), s.count(), Long::sum);
      return;
    }
    shards(v, s.count());
    if (v.key() != null) {
      hotKeys.add(v.key(), s.count());
    }
  }

  private void shards(Verdict v, long count) {
    if (v.route() == Route.ALL && v.shards().isEmpty()) {
      for (int i = 0; i < perShard.length; i++) {
        perShard[i] += count;
      }
    }
    for (int shard : v.shards()) {
      perShard[shard] += count;
    }
  }

  /** Refused executions per SHX id, most first. */
  Map<String, Long> refusals() {
    Map<String, Long> byReason = new HashMap<>();
    for (DigestStats d : digests.values()) {
      if (d.reason != null) {
        byReason.merge(d.reason, d.tally.count(Route.REFUSED), Long::sum);
      }
    }
    Map<String, Long> sorted = new LinkedHashMap<>();
    byReason.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }
}
