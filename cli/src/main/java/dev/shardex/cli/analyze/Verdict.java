package dev.shardex.cli.analyze;

import java.util.List;

/**
 * What the router made of one statement: where it goes and on which shards, or, refused, the
 * error's SHX id and message. {@code fanout} is the plan's own word (ONE, CONCAT, MERGE, SUM,
 * REPLICATE, JOIN, HOLD) for the report's detail; {@code key} the shard key a one-shard statement
 * was routed by (for hot keys), or null.
 */
record Verdict(Route route, List<Integer> shards, String reason, String message, String fanout, Object key) {
  static Verdict ignored(String why) {
    return new Verdict(Route.IGNORED, List.of(), null, why, null, null);
  }

  static Verdict refused(String id, String message) {
    return new Verdict(Route.REFUSED, List.of(), id, message, null, null);
  }
}
