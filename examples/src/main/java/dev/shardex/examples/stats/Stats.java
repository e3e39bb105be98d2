package dev.shardex.examples.stats;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * SoundCloud's statistics, as plain JDBC for one MySQL server: a write-optimised {@code plays} log
 * and read-optimised aggregate tables whose clustered primary keys put a track's counts next to
 * each other on disk, so a time series or a per-country total is one range scan of the primary
 * key. Every table is sharded by the track's owner, so an owner's log and aggregates live
 * together and the ETL's transaction for one owner stays on one shard.
 *
 * <p>The ETL is idempotent: each batch of an owner's unfolded plays is added to the aggregates and
 * marked folded in the same transaction, so a re-run adds nothing twice and a crash mid-run rolls
 * back only the batch it was in.
 */
public final class Stats {
  static final int BATCH = 2_000;
  private final Connection c;

  public Stats(Connection c) {
    this.c = c;
  }

  public void createSchema() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=owner_id */ CREATE TABLE IF NOT EXISTS plays (play_id BIGINT NOT NULL AUTO_INCREMENT "
          + "PRIMARY KEY, owner_id INT UNSIGNED NOT NULL, track_id INT UNSIGNED NOT NULL, played_at DATETIME NOT NULL, "
          + "country CHAR(2) CHARACTER SET latin1 NOT NULL, folded TINYINT NOT NULL DEFAULT 0, KEY unfolded (owner_id, folded, play_id))");
      s.execute("/* shardex:sharded key=owner_id */ CREATE TABLE IF NOT EXISTS plays_by_hour (owner_id INT UNSIGNED NOT NULL, "
          + "track_id INT UNSIGNED NOT NULL, hour DATETIME NOT NULL, count INT UNSIGNED NOT NULL, "
          + "PRIMARY KEY (owner_id, track_id, hour))");
      s.execute("/* shardex:sharded key=owner_id */ CREATE TABLE IF NOT EXISTS plays_by_country_day (owner_id INT UNSIGNED NOT NULL, "
          + "track_id INT UNSIGNED NOT NULL, day DATE NOT NULL, country CHAR(2) CHARACTER SET latin1 NOT NULL, "
          + "count INT UNSIGNED NOT NULL, PRIMARY KEY (owner_id, track_id, day, country))");
    }
  }

  /** One play event, as the log receives it. */
  public record Play(long owner, long track, LocalDateTime at, String country) {}

  /** Appends plays to the log, batched (rows of many owners: each goes to its owner's shard). */
  public void log(List<Play> plays) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "INSERT INTO plays (owner_id, track_id, played_at, country) VALUES (?, ?, ?, ?)")) {
      for (Play p : plays) {
        ps.setLong(1, p.owner());
        ps.setLong(2, p.track());
        ps.setTimestamp(3, Timestamp.valueOf(p.at()));
        ps.setString(4, p.country());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /** Folds every unfolded play into the aggregates; returns how many plays it folded. */
  public long etl() throws SQLException {
    return etl(Long.MAX_VALUE);
  }

  /**
   * Like {@link #etl()}, but stops dead (as a crash would: the open batch is never committed) once
   * {@code crashAfter} plays have been aggregated; tests use it to crash the job mid-run.
   */
  public long etl(long crashAfter) throws SQLException {
    List<Long> owners = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT DISTINCT owner_id FROM plays WHERE folded = 0")) {
      while (rs.next()) {
        owners.add(rs.getLong(1));
      }
    }
    long folded = 0;
    for (long owner : owners) {
      for (int n; (n = foldBatch(owner, crashAfter - folded)) > 0; ) {
        folded += n;
      }
    }
    return folded;
  }

  private int foldBatch(long owner, long crashAfter) throws SQLException {
    c.setAutoCommit(false);
    try {
      Map<List<Object>, Integer> byHour = new LinkedHashMap<>();
      Map<List<Object>, Integer> byCountryDay = new LinkedHashMap<>();
      List<Long> ids = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement("SELECT play_id, track_id, played_at, country FROM plays "
          + "WHERE owner_id = ? AND folded = 0 ORDER BY play_id LIMIT " + BATCH + " FOR UPDATE")) {
        ps.setLong(1, owner);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            ids.add(rs.getLong(1));
            LocalDateTime at = rs.getTimestamp(3).toLocalDateTime();
            byHour.merge(List.of(rs.getLong(2), at.truncatedTo(ChronoUnit.HOURS)), 1, Integer::sum);
            byCountryDay.merge(List.of(rs.getLong(2), at.toLocalDate(), rs.getString(4)), 1, Integer::sum);
          }
        }
      }
      if (ids.isEmpty()) {
        c.commit();
        return 0;
      }
      upsert("INSERT INTO plays_by_hour (owner_id, track_id, hour, count) VALUES (?, ?, ?, ?) "
          + "ON DUPLICATE KEY UPDATE count = count + VALUES(count)", owner, byHour);
      upsert("INSERT INTO plays_by_country_day (owner_id, track_id, day, country, count) VALUES (?, ?, ?, ?, ?) "
          + "ON DUPLICATE KEY UPDATE count = count + VALUES(count)", owner, byCountryDay);
      if (ids.size() > crashAfter) {
        throw new SQLException("simulated crash of the ETL job mid-batch (owner " + owner + ")", "08S01");
      }
      StringBuilder in = new StringBuilder();
      for (long id : ids) {
        in.append(in.length() == 0 ? "" : ",").append(id);
      }
      try (PreparedStatement ps = c.prepareStatement("UPDATE plays SET folded = 1 WHERE owner_id = ? AND play_id IN (" + in + ")")) {
        ps.setLong(1, owner);
        ps.executeUpdate();
      }
      c.commit();
      return ids.size();
    } catch (SQLException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(true);
    }
  }

  private void upsert(String sql, long owner, Map<List<Object>, Integer> counts) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (Map.Entry<List<Object>, Integer> e : counts.entrySet()) {
        ps.setLong(1, owner);
        int i = 2;
        for (Object v : e.getKey()) {
          ps.setObject(i++, v);
        }
        ps.setInt(i, e.getValue());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /** A track's plays per hour in [from, to): one range scan of plays_by_hour's primary key. */
  public Map<LocalDateTime, Long> hourly(long owner, long track, LocalDateTime from, LocalDateTime to) throws SQLException {
    Map<LocalDateTime, Long> out = new TreeMap<>();
    try (PreparedStatement ps = c.prepareStatement(HOURLY)) {
      ps.setLong(1, owner);
      ps.setLong(2, track);
      ps.setTimestamp(3, Timestamp.valueOf(from));
      ps.setTimestamp(4, Timestamp.valueOf(to));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getTimestamp(1).toLocalDateTime(), rs.getLong(2));
        }
      }
    }
    return out;
  }

  public static final String HOURLY = "SELECT hour, count FROM plays_by_hour WHERE owner_id = ? AND track_id = ? "
      + "AND hour >= ? AND hour < ? ORDER BY hour";

  /** A track's plays per country for days in [from, to] (null: all time). */
  public Map<String, Long> byCountry(long owner, long track, LocalDate from, LocalDate to) throws SQLException {
    Map<String, Long> out = new TreeMap<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT country, SUM(count) FROM plays_by_country_day "
        + "WHERE owner_id = ? AND track_id = ? AND day BETWEEN ? AND ? GROUP BY country")) {
      ps.setLong(1, owner);
      ps.setLong(2, track);
      ps.setObject(3, from == null ? LocalDate.of(1970, 1, 1) : from);
      ps.setObject(4, to == null ? LocalDate.of(9999, 12, 31) : to);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getString(1), rs.getLong(2));
        }
      }
    }
    return out;
  }

  /** The same per-country totals counted from the raw log (the slow way), to check the aggregates. */
  public Map<String, Long> byCountryFromLog(long owner, long track, LocalDate from, LocalDate to) throws SQLException {
    Map<String, Long> out = new TreeMap<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT country, COUNT(*) FROM plays WHERE owner_id = ? AND track_id = ? "
        + "AND played_at >= ? AND played_at < ? GROUP BY country")) {
      ps.setLong(1, owner);
      ps.setLong(2, track);
      ps.setObject(3, (from == null ? LocalDate.of(1970, 1, 1) : from).atStartOfDay());
      ps.setObject(4, (to == null ? LocalDate.of(9999, 12, 30) : to).plusDays(1).atStartOfDay());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getString(1), rs.getLong(2));
        }
      }
    }
    return out;
  }
}
