package dev.shardex.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The harness's arithmetic, without a sandbox: percentiles and paired round ratios. */
class ReportTest {

  @Test
  void percentile_nearestRank() {
    long[] sorted = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
    assertEquals(50, Report.percentile(sorted, 0.50));
    assertEquals(100, Report.percentile(sorted, 0.99));
    assertEquals(10, Report.percentile(sorted, 0.0));
  }

  @Test
  void withRatios_medianOfPerRoundRatios() {
    Report.Row direct = row(Contender.DIRECT, 100, 200, 400);
    Report.Row shardex = row(Contender.SHARDEX, 90, 210, 360);
    Report.Row ss = row(Contender.SHARDING_SPHERE, 50, 100, 200);
    List<Report.Row> rows = Report.withRatios(List.of(direct, shardex, ss));
    assertEquals(0.9, rows.get(1).vsDirect(), 1e-9); // per round 0.9, 1.05, 0.9
    assertEquals(1.8, rows.get(1).vsShardingSphere(), 1e-9); // per round 1.8, 2.1, 1.8
    assertEquals(1.0, rows.get(0).vsDirect(), 1e-9);
  }

  private static Report.Row row(String contender, double... rounds) {
    return new Report.Row(Workload.POINT_SELECT, false, 1, contender, rounds[0], rounds[0], rounds[0], 1, 2, 3, 4, rounds,
        Double.NaN, Double.NaN);
  }
}
