package dev.shardex.examples.stats;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * SoundCloud's "MySQL for statistics": plays go to a log, an ETL job folds them into aggregate
 * tables with clustered primary keys, and the stats pages read a track's time series and its
 * per-country totals for this week, last week and all time from the aggregates only. Prints what
 * it measured, checks the aggregates against the raw log, shows the shard's EXPLAIN, and exits.
 *
 * <p>Runs on an embedded 4-shard sandbox by default; {@code -Dshardex.url=...} runs it elsewhere.
 */
public final class StatsDemo {
  static final String DEFAULT_URL = "jdbc:shardex:sandbox:stats?shards=4";
  /** The demo's "now": data and weeks are relative to it, so every run prints the same totals. */
  static final LocalDateTime NOW = LocalDateTime.of(2026, 11, 20, 12, 0);
  static final String[] COUNTRIES = {"DE", "US", "GB", "FR", "SE", "BR", "JP", "NL"};

  private StatsDemo() {}

  /** Deterministic plays: {@code owners} owners with 4 tracks each, over the 21 days before {@link #NOW}. */
  public static List<Stats.Play> plays(int count, int owners, long seed) {
    Random r = new Random(seed);
    List<Stats.Play> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      long owner = 10_000 + (long) Math.min(owners - 1, Math.abs(r.nextGaussian()) * owners / 3);
      long track = owner * 10 + r.nextInt(4);
      LocalDateTime at = NOW.minusSeconds(r.nextInt(21 * 24 * 3600));
      out.add(new Stats.Play(owner, track, at, COUNTRIES[Math.min(COUNTRIES.length - 1, (int) Math.abs(r.nextGaussian() * 2.5))]));
    }
    return out;
  }

  public static void main(String[] args) throws SQLException {
    String url = System.getProperty("shardex.url", DEFAULT_URL);
    int count = Integer.getInteger("stats.plays", 40_000);
    try (Connection c = DriverManager.getConnection(url + (url.contains("?") ? "&" : "?") + "shardex.hints=true")) {
      System.out.printf("SoundCloud's statistics on %s%n%n", url.replaceAll("password=[^&]*", "password=***"));
      Stats stats = new Stats(c);
      stats.createSchema();
      StringBuilder owners = new StringBuilder();
      for (int o = 0; o < 40; o++) {
        owners.append(o == 0 ? "" : ",").append(10_000 + o);
      }
      try (Statement s = c.createStatement()) {
        for (String t : new String[] {"plays", "plays_by_hour", "plays_by_country_day"}) {
          s.execute("DELETE FROM " + t + " WHERE owner_id IN (" + owners + ")");
        }
      }
      List<Stats.Play> plays = plays(count, 40, 42);
      long t0 = System.nanoTime();
      for (int i = 0; i < plays.size(); i += 1_000) {
        stats.log(plays.subList(i, Math.min(plays.size(), i + 1_000)));
      }
      long t1 = System.nanoTime();
      long folded = stats.etl();
      long t2 = System.nanoTime();
      long again = stats.etl();
      System.out.printf(Locale.ROOT, "Logged %,d plays of 40 owners x 4 tracks in %.2f s (%,.0f plays/s, batched)%n", plays.size(),
          (t1 - t0) / 1e9, plays.size() / ((t1 - t0) / 1e9));
      System.out.printf(Locale.ROOT, "ETL folded %,d plays into the aggregates in %.2f s (%,.0f plays/s); a re-run folded %d%n%n",
          folded, (t2 - t1) / 1e9, folded / ((t2 - t1) / 1e9), again);
      long owner = 10_000;
      long track = owner * 10;
      Map<LocalDateTime, Long> hours = stats.hourly(owner, track, NOW.minusDays(1), NOW);
      System.out.printf("Track %d of owner %d, plays per hour over the last 24 h (%d hours with plays, %d plays):%n", track, owner,
          hours.size(), hours.values().stream().mapToLong(Long::longValue).sum());
      hours.entrySet().stream().limit(6).forEach(e -> System.out.printf("  %s  %d%n", e.getKey(), e.getValue()));
      System.out.println("  ...");
      LocalDate today = NOW.toLocalDate();
      Object[][] periods = {{"this week", today.minusDays(6), today}, {"last week", today.minusDays(13), today.minusDays(7)},
          {"all time", null, null}};
      System.out.printf("%nPlays per country (aggregates; the raw log agrees: checked per period):%n");
      System.out.printf("  %-10s %s%n", "period", String.join("  ", COUNTRIES));
      boolean agree = true;
      for (Object[] p : periods) {
        Map<String, Long> agg = stats.byCountry(owner, track, (LocalDate) p[1], (LocalDate) p[2]);
        agree &= agg.equals(stats.byCountryFromLog(owner, track, (LocalDate) p[1], (LocalDate) p[2]));
        StringBuilder row = new StringBuilder();
        for (String country : COUNTRIES) {
          row.append(String.format("%4d", agg.getOrDefault(country, 0L)));
        }
        System.out.printf("  %-10s%s%n", p[0], row);
      }
      System.out.printf("  aggregates equal the raw log: %s%n", agree ? "yes" : "NO");
      Map<String, String> explain = explainHourly(c, owner, track, NOW.minusDays(1), NOW);
      System.out.printf("%nEXPLAIN of the time-series query on the owner's shard %s: type=%s key=%s key_len=%s rows=%s Extra=%s%n",
          explain.get("shard"), explain.get("type"), explain.get("key"), explain.get("key_len"), explain.get("rows"), explain.get("Extra"));
      System.out.println("(the seed's goal: a range scan of the clustered PRIMARY key, no filesort, no temporary table)");
      if (!agree) {
        throw new SQLException("the aggregates differ from the raw log");
      }
    }
  }

  /**
   * MySQL's own EXPLAIN of the time-series query, run on the owner's shard (found with Shardex's
   * EXPLAIN ROUTE, reached with a shard hint; the connection needs shardex.hints=true): the
   * columns of its first row.
   */
  static Map<String, String> explainHourly(Connection c, long owner, long track, LocalDateTime from, LocalDateTime to)
      throws SQLException {
    String sql = Stats.HOURLY.replaceFirst("\\?", Long.toString(owner)).replaceFirst("\\?", Long.toString(track))
        .replaceFirst("\\?", "'" + from.toString().replace('T', ' ') + "'").replaceFirst("\\?", "'" + to.toString().replace('T', ' ') + "'");
    Map<String, String> out = new java.util.LinkedHashMap<>();
    try (Statement s = c.createStatement()) {
      int shard;
      try (java.sql.ResultSet rs = s.executeQuery("EXPLAIN ROUTE " + sql)) {
        rs.next();
        shard = rs.getInt(1);
      }
      out.put("shard", Integer.toString(shard));
      try (java.sql.ResultSet rs = s.executeQuery("/* shardex:shard=" + shard + " */ EXPLAIN " + sql)) {
        if (rs.next()) {
          for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
            out.put(rs.getMetaData().getColumnLabel(i), rs.getString(i));
          }
        }
      }
    }
    return out;
  }
}
