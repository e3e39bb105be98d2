package dev.shardex.examples.timeline;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A friends timeline both ways, as plain JDBC for one MySQL server, from Kazuho Oku's "Implementing
 * Timeline in Web Services": push (every submission writes a row into each follower's mailbox;
 * reading is cheap) and pull (a submission writes one row; reading merges the newest messages of
 * the people one follows). Every table is sharded by its user_id: a user's follow lists, messages
 * and mailbox live on the user's shard. Paging is by {@code id < ?}, never OFFSET.
 *
 * <p>Where the seed used stored procedures for pull, this uses what a sharded driver offers: an IN
 * list that the driver splits per shard and a merged {@code GROUP BY}/{@code ORDER BY ... LIMIT}.
 */
public final class Timeline {
  public static final int PAGE = 20;
  private final Connection c;

  public Timeline(Connection c) {
    this.c = c;
  }

  public void createSchema() throws SQLException {
    try (Statement s = c.createStatement()) {
      // who a user follows (pull reads it) and who follows a user (push writes through it)
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS follows (user_id INT UNSIGNED NOT NULL, "
          + "followee_id INT UNSIGNED NOT NULL, PRIMARY KEY (user_id, followee_id))");
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS followers (user_id INT UNSIGNED NOT NULL, "
          + "follower_id INT UNSIGNED NOT NULL, PRIMARY KEY (user_id, follower_id))");
      s.execute("/* shardex:sharded key=user_id sequence=id */ CREATE TABLE IF NOT EXISTS message (id BIGINT UNSIGNED NOT NULL, "
          + "user_id INT UNSIGNED NOT NULL, body VARCHAR(255) NOT NULL, PRIMARY KEY (id), KEY user_id_id (user_id, id))");
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS mailbox (user_id INT UNSIGNED NOT NULL, "
          + "message_id BIGINT UNSIGNED NOT NULL, sender_id INT UNSIGNED NOT NULL, PRIMARY KEY (user_id, message_id))");
    }
  }

  /** One message of a timeline. */
  public record Message(long id, long sender, String body) {}

  /** Records that {@code user} follows each of {@code followees} (both directions), batched. */
  public void follow(long user, Collection<Long> followees) throws SQLException {
    try (PreparedStatement f = c.prepareStatement("INSERT IGNORE INTO follows (user_id, followee_id) VALUES (?, ?)");
        PreparedStatement r = c.prepareStatement("INSERT IGNORE INTO followers (user_id, follower_id) VALUES (?, ?)")) {
      for (long followee : followees) {
        f.setLong(1, user);
        f.setLong(2, followee);
        f.addBatch();
        r.setLong(1, followee);
        r.setLong(2, user);
        r.addBatch();
      }
      f.executeBatch();
      r.executeBatch();
    }
  }

  /** Pull: a submission is one row. Returns the message id. */
  public long submitPull(long user, String body) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO message (user_id, body) VALUES (?, ?)",
        Statement.RETURN_GENERATED_KEYS)) {
      ps.setLong(1, user);
      ps.setString(2, body);
      ps.executeUpdate();
      try (ResultSet keys = ps.getGeneratedKeys()) {
        keys.next();
        return keys.getLong(1);
      }
    }
  }

  /** Push: the message, then one mailbox row per follower (one multi-row INSERT, split per shard). */
  public long submitPush(long user, String body) throws SQLException {
    long id = submitPull(user, body);
    List<Long> followers = ids("SELECT follower_id FROM followers WHERE user_id = ?", user);
    followers.add(user); // one's own messages are on one's timeline too
    StringBuilder sql = new StringBuilder("INSERT INTO mailbox (user_id, message_id, sender_id) VALUES ");
    for (int i = 0; i < followers.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append("(?, ?, ?)");
    }
    try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
      int p = 1;
      for (long follower : followers) {
        ps.setLong(p++, follower);
        ps.setLong(p++, id);
        ps.setLong(p++, user);
      }
      ps.executeUpdate();
    }
    return id;
  }

  /** Push: a page of the user's mailbox (one shard), then those messages (their senders' shards). */
  public List<Message> pushPage(long user, long beforeId) throws SQLException {
    List<long[]> box = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT message_id, sender_id FROM mailbox WHERE user_id = ? "
        + "AND message_id < ? ORDER BY message_id DESC LIMIT " + PAGE)) {
      ps.setLong(1, user);
      ps.setLong(2, beforeId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          box.add(new long[] {rs.getLong(1), rs.getLong(2)});
        }
      }
    }
    if (box.isEmpty()) {
      return List.of();
    }
    return messages("SELECT id, user_id, body FROM message WHERE user_id IN (" + list(box.stream().map(b -> b[1]).distinct().toList())
        + ") AND id IN (" + list(box.stream().map(b -> b[0]).toList()) + ") ORDER BY id DESC");
  }

  /**
   * Pull, the seed's algorithm: (1) the newest message id of each followee, (2) keep the 20
   * followees with the newest, (3) the newest messages of those, (4) the top 20. Steps 1 and 3 are
   * one statement each over every shard the followees live on.
   */
  public List<Message> pullPage(long user, long beforeId) throws SQLException {
    List<Long> followees = ids("SELECT followee_id FROM follows WHERE user_id = ?", user);
    followees.add(user);
    List<long[]> newest = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT user_id, MAX(id) AS max_id FROM message WHERE user_id IN ("
        + list(followees) + ") AND id < ? GROUP BY user_id")) {
      ps.setLong(1, beforeId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          newest.add(new long[] {rs.getLong(1), rs.getLong(2)});
        }
      }
    }
    if (newest.isEmpty()) {
      return List.of();
    }
    newest.sort((a, b) -> Long.compare(b[1], a[1]));
    List<Long> top = newest.stream().limit(PAGE).map(n -> n[0]).toList();
    try (PreparedStatement ps = c.prepareStatement("SELECT id, user_id, body FROM message WHERE user_id IN (" + list(top)
        + ") AND id < ? ORDER BY id DESC LIMIT " + PAGE)) {
      ps.setLong(1, beforeId);
      return read(ps);
    }
  }

  private List<Message> messages(String sql) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      return read(ps);
    }
  }

  private static List<Message> read(PreparedStatement ps) throws SQLException {
    List<Message> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(new Message(rs.getLong(1), rs.getLong(2), rs.getString(3)));
      }
    }
    return out;
  }

  private List<Long> ids(String sql, long user) throws SQLException {
    List<Long> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setLong(1, user);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getLong(1));
        }
      }
    }
    return out;
  }

  private static String list(List<Long> ids) {
    return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
  }
}
