package dev.shardex.examples.blog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The blog's data access, written as plain JDBC for one MySQL server. The only trace of sharding
 * is the comment on each CREATE TABLE that declares how the table is spread (MySQL ignores it).
 * Comments are stored with the post's author, so a post and its comments live together.
 */
public final class Blog {
  private final Connection c;

  public Blog(Connection c) {
    this.c = c;
  }

  public void createSchema() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=author_id */ CREATE TABLE IF NOT EXISTS authors ("
          + "author_id BIGINT PRIMARY KEY, name VARCHAR(64) NOT NULL, joined TIMESTAMP DEFAULT CURRENT_TIMESTAMP)");
      s.execute("/* shardex:sharded key=author_id */ CREATE TABLE IF NOT EXISTS posts ("
          + "post_id BIGINT AUTO_INCREMENT PRIMARY KEY, author_id BIGINT NOT NULL, title VARCHAR(200) NOT NULL, "
          + "body TEXT, created TIMESTAMP(6) DEFAULT CURRENT_TIMESTAMP(6), KEY by_author (author_id, created))");
      s.execute("/* shardex:sharded key=author_id */ CREATE TABLE IF NOT EXISTS comments ("
          + "comment_id BIGINT AUTO_INCREMENT PRIMARY KEY, author_id BIGINT NOT NULL, post_id BIGINT NOT NULL, "
          + "commenter_id BIGINT NOT NULL, body TEXT, KEY by_post (author_id, post_id))");
    }
  }

  public void addAuthor(long id, String name) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "INSERT INTO authors (author_id, name) VALUES (?, ?) ON DUPLICATE KEY UPDATE name = VALUES(name)")) {
      ps.setLong(1, id);
      ps.setString(2, name);
      ps.executeUpdate();
    }
  }

  public long publish(long author, String title, String body) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO posts (author_id, title, body) VALUES (?, ?, ?)",
        Statement.RETURN_GENERATED_KEYS)) {
      ps.setLong(1, author);
      ps.setString(2, title);
      ps.setString(3, body);
      ps.executeUpdate();
      try (ResultSet keys = ps.getGeneratedKeys()) {
        keys.next();
        return keys.getLong(1);
      }
    }
  }

  public void comment(long postAuthor, long post, long commenter, String body) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "INSERT INTO comments (author_id, post_id, commenter_id, body) VALUES (?, ?, ?, ?)")) {
      ps.setLong(1, postAuthor);
      ps.setLong(2, post);
      ps.setLong(3, commenter);
      ps.setString(4, body);
      ps.executeUpdate();
    }
  }

  /** The author's latest posts with their comment counts: one join, one shard. */
  public List<String> timeline(long author) throws SQLException {
    List<String> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT p.title, COUNT(cm.comment_id) AS comments FROM posts p "
            + "LEFT JOIN comments cm ON cm.author_id = p.author_id AND cm.post_id = p.post_id "
            + "WHERE p.author_id = ? GROUP BY p.post_id, p.title, p.created ORDER BY p.created DESC LIMIT 10")) {
      ps.setLong(1, author);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString("title") + " (" + rs.getInt("comments") + " comments)");
        }
      }
    }
    return out;
  }
}
