package dev.shardex.examples.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** SoundCloud's aggregates: exact, idempotent, crash-safe, and read by a range scan of the primary key. */
class StatsTest {
  static final String URL = "jdbc:shardex:sandbox:statstest?shards=3&shardex.hints=true";

  @Test
  void etl_foldsExactly_reRunAddsNothing_crashMidRunLosesAndDoublesNothing() throws Exception {
    try (Connection c = DriverManager.getConnection(URL)) {
      Stats stats = new Stats(c);
      stats.createSchema();
      try (Statement s = c.createStatement()) {
        for (String t : new String[] {"plays", "plays_by_hour", "plays_by_country_day"}) {
          s.execute("DELETE FROM " + t + " WHERE owner_id IN (10000,10001,10002,10003,10004,10005)");
        }
      }
      List<Stats.Play> first = StatsDemo.plays(3_000, 6, 7);
      stats.log(first);
      assertEquals(3_000, stats.etl());
      assertEquals(0, stats.etl(), "a re-run folds nothing twice");
      List<Stats.Play> second = StatsDemo.plays(4_500, 6, 8);
      stats.log(second);
      SQLException crash = assertThrows(SQLException.class, () -> stats.etl(100));
      assertTrue(crash.getMessage().contains("simulated crash"), crash.getMessage());
      assertEquals(4_500, stats.etl(), "after the crash every unfolded play is folded once");
      List<Stats.Play> all = new java.util.ArrayList<>(first);
      all.addAll(second);
      for (long owner = 10_000; owner < 10_006; owner++) {
        for (long track = owner * 10; track < owner * 10 + 4; track++) {
          final long o = owner;
          final long t = track;
          List<Stats.Play> mine = all.stream().filter(p -> p.owner() == o && p.track() == t).toList();
          Map<LocalDateTime, Long> hours = new TreeMap<>(mine.stream().filter(p -> !p.at().isBefore(StatsDemo.NOW.minusDays(2)))
              .collect(Collectors.groupingBy(p -> p.at().truncatedTo(ChronoUnit.HOURS), Collectors.counting())));
          assertEquals(hours, stats.hourly(owner, track, StatsDemo.NOW.minusDays(2), StatsDemo.NOW.plusHours(1)),
              "hourly series of track " + track);
          LocalDate today = StatsDemo.NOW.toLocalDate();
          Map<String, Long> week = new TreeMap<>(mine.stream().filter(p -> !p.at().toLocalDate().isBefore(today.minusDays(6)))
              .collect(Collectors.groupingBy(Stats.Play::country, Collectors.counting())));
          assertEquals(week, stats.byCountry(owner, track, today.minusDays(6), today), "this week per country, track " + track);
          Map<String, Long> ever = new TreeMap<>(mine.stream().collect(Collectors.groupingBy(Stats.Play::country, Collectors.counting())));
          assertEquals(ever, stats.byCountry(owner, track, null, null), "all time per country, track " + track);
        }
      }
      Map<String, String> explain = StatsDemo.explainHourly(c, 10_000, 100_000, StatsDemo.NOW.minusDays(1), StatsDemo.NOW);
      assertEquals("range", explain.get("type"), explain.toString());
      assertEquals("PRIMARY", explain.get("key"), explain.toString());
    }
  }
}
