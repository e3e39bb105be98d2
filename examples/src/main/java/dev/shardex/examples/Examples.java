package dev.shardex.examples;

import java.util.Arrays;

/**
 * Runs one example by name ({@code -Dexample=NAME} with the demo profile): blog, graph, stats,
 * timeline, friendfeed. Each is an ordinary JDBC application; only its URL names Shardex.
 */
public final class Examples {
  private Examples() {}

  public static void main(String[] args) throws Exception {
    String name = args.length > 0 ? args[0] : "blog";
    String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
    switch (name) {
      case "blog" -> dev.shardex.examples.blog.BlogDemo.main(rest);
      case "graph" -> dev.shardex.examples.graph.GraphDemo.main(rest);
      case "stats" -> dev.shardex.examples.stats.StatsDemo.main(rest);
      case "timeline" -> dev.shardex.examples.timeline.TimelineDemo.main(rest);
      case "friendfeed" -> dev.shardex.examples.friendfeed.FriendFeedDemo.main(rest);
      default -> {
        System.err.println("unknown example '" + name + "': use blog, graph, stats, timeline or friendfeed");
        System.exit(1);
      }
    }
  }
}
