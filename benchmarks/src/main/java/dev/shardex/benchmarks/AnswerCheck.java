package dev.shardex.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Before anything is timed, every contender answers every workload on sample users, in both
 * prepared-once and fresh-prepare mode, and must agree with Connector/J on the owning shard: the
 * same rows for reads, the sum over all shards for the scatter COUNT, and for writes exactly the
 * row change on the owning shard (and none elsewhere). A wrong answer aborts the run.
 */
final class AnswerCheck {
  private static final java.util.concurrent.atomic.AtomicLong CHECK_POSTS = new java.util.concurrent.atomic.AtomicLong(1L << 50);

  private final BenchCluster cluster;
  private final Session direct;
  private final Connection[] shards;

  AnswerCheck(BenchCluster cluster, Session direct) throws SQLException {
    this.cluster = cluster;
    this.direct = direct;
    this.shards = new Connection[cluster.shardCount()];
    for (int i = 0; i < shards.length; i++) {
      shards[i] = cluster.connectShard(i);
    }
  }

  /** Checks one contender on the sample users; returns the number of answers compared. */
  int check(Session contender, List<Long> sample) throws SQLException {
    int compared = 0;
    long total = 0;
    for (int shard = 0; shard < cluster.shardCount(); shard++) {
      total += direct.scatterCount(shard, false);
    }
    String who = contender.contender().name();
    if (contender.connectionCount() != 1) {
      throw new IllegalArgumentException(who + " is checked against direct, not a sharding driver");
    }
    for (boolean fresh : new boolean[] {false, true}) {
      String mode = fresh ? " (fresh prepare)" : "";
      expect(total > 0, who, "scatter COUNT found no rows at all" + mode);
      long got = contender.scatterCount(0, fresh);
      expect(got == total, who, "scatter COUNT" + mode + " = " + got + ", direct sum over the shards = " + total);
      compared++;
      for (long user : sample) {
        String row = direct.pointSelect(user, false);
        expect(!row.equals("none"), who, "user " + user + " missing on its shard");
        expect(row.equals(contender.pointSelect(user, fresh)), who, "point select of user " + user + mode);
        String timeline = direct.timeline(user, false);
        expect(timeline.split(";").length == Math.min(10, cluster.postsPerUser()), who, "timeline of user " + user
            + " has " + timeline.split(";").length + " rows on its shard");
        expect(timeline.equals(contender.timeline(user, fresh)), who, "timeline of user " + user + mode);
        checkUpdate(contender, user, fresh, who + mode);
        checkInsert(contender, user, fresh, who + mode);
        compared += 4;
      }
    }
    return compared;
  }

  private void checkUpdate(Session contender, long user, boolean fresh, String who) throws SQLException {
    long before = visits(user);
    expect(contender.update(user, fresh) == 1, who, "update of user " + user + " did not report 1 row");
    expect(visits(user) == before + 1, who, "update of user " + user + " did not add 1 visit on its shard");
  }

  private void checkInsert(Session contender, long user, boolean fresh, String who) throws SQLException {
    long postId = CHECK_POSTS.incrementAndGet();
    expect(contender.insert(user, postId, fresh) == 1, who, "insert for user " + user + " did not report 1 row");
    for (int shard = 0; shard < shards.length; shard++) {
      int expected = shard == cluster.owner(user) ? 1 : 0;
      expect(countPost(shard, postId, user) == expected, who, "insert for user " + user + " landed "
          + (expected == 1 ? "not on its shard " : "on shard ") + shard);
    }
  }

  private long visits(long user) throws SQLException {
    try (PreparedStatement ps = shards[cluster.owner(user)].prepareStatement("SELECT visits FROM users WHERE user_id = ?")) {
      ps.setLong(1, user);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private long countPost(int shard, long postId, long user) throws SQLException {
    try (PreparedStatement ps = shards[shard].prepareStatement("SELECT COUNT(*) FROM posts WHERE post_id = ? AND user_id = ?")) {
      ps.setLong(1, postId);
      ps.setLong(2, user);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static void expect(boolean ok, String contender, String what) {
    if (!ok) {
      throw new WrongAnswer(contender + ": wrong answer: " + what);
    }
  }

  void close() throws SQLException {
    for (Connection c : shards) {
      c.close();
    }
  }

  /** A contender disagreed with Connector/J on the owning shard: the run stops. */
  static final class WrongAnswer extends RuntimeException {
    private static final long serialVersionUID = 1L;

    WrongAnswer(String message) {
      super(message);
    }
  }
}
