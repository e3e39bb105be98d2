package dev.shardex.examples.blog;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Netlog's two-step reads with their list cache, as plain JDBC plus Caffeine. A page of an author's
 * posts is a "list" query (ids only, WHERE/ORDER/LIMIT, asking the database for a window of 100
 * and serving pages from it) followed by a "details" query by those ids. List results are cached
 * under table + author + window + a revision number; every write for that author bumps the
 * revision, so a cached list is never stale: entries of an old revision are simply never asked
 * for again and age out.
 */
public final class PostLists {
  public static final int WINDOW = 100;
  private final Connection c;
  private final Blog blog;
  private final Cache<String, List<Long>> lists = Caffeine.newBuilder().maximumSize(10_000).recordStats().build();
  private final Map<Long, Long> revisions = new ConcurrentHashMap<>();
  private final AtomicLong clock = new AtomicLong(System.currentTimeMillis());
  private final AtomicLong listQueries = new AtomicLong();

  public PostLists(Connection c) {
    this.c = c;
    this.blog = new Blog(c);
  }

  /** One post of a page. */
  public record Post(long id, String title) {}

  /** Publishes through {@link Blog#publish} and bumps the author's revision of the posts list. */
  public long publish(long author, String title, String body) throws SQLException {
    long id = blog.publish(author, title, body);
    revisions.put(author, clock.incrementAndGet());
    return id;
  }

  /** Page {@code page} (from 0) of the author's posts, newest first. */
  public List<Post> page(long author, int page, int pageSize) throws SQLException {
    int from = page * pageSize;
    int window = from / WINDOW;
    String key = "posts:" + author + ":w" + window + ":r" + revisions.computeIfAbsent(author, a -> clock.incrementAndGet());
    List<Long> ids = lists.getIfPresent(key);
    if (ids == null) {
      ids = listQuery(author, window);
      lists.put(key, ids);
    }
    int start = from - window * WINDOW;
    List<Long> slice = ids.subList(Math.min(start, ids.size()), Math.min(start + pageSize, ids.size()));
    return details(author, slice);
  }

  /** The same page read straight from the database (no cache): what a cached page must equal. */
  public List<Post> pageUncached(long author, int page, int pageSize) throws SQLException {
    List<Long> ids = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT post_id FROM posts WHERE author_id = ? "
        + "ORDER BY created DESC, post_id DESC LIMIT " + pageSize + " OFFSET " + page * pageSize)) {
      ps.setLong(1, author);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
    }
    return details(author, ids);
  }

  private List<Long> listQuery(long author, int window) throws SQLException {
    listQueries.incrementAndGet();
    List<Long> ids = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT post_id FROM posts WHERE author_id = ? "
        + "ORDER BY created DESC, post_id DESC LIMIT " + WINDOW + " OFFSET " + window * WINDOW)) {
      ps.setLong(1, author);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
    }
    return List.copyOf(ids);
  }

  private List<Post> details(long author, List<Long> ids) throws SQLException {
    if (ids.isEmpty()) {
      return List.of();
    }
    Map<Long, Post> byId = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT post_id, title FROM posts WHERE author_id = ? AND post_id IN ("
        + ids.stream().map(String::valueOf).collect(Collectors.joining(",")) + ")")) {
      ps.setLong(1, author);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          byId.put(rs.getLong(1), new Post(rs.getLong(1), rs.getString(2)));
        }
      }
    }
    return ids.stream().map(byId::get).filter(java.util.Objects::nonNull).toList();
  }

  public double hitRate() {
    return lists.stats().hitRate();
  }

  public long requests() {
    return lists.stats().requestCount();
  }

  /** List queries that reached the database (cache misses). */
  public long listQueries() {
    return listQueries.get();
  }
}
