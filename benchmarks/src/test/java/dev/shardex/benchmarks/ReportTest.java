package dev.shardex.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The harness's arithmetic, without a sandbox: percentiles, paired round ratios, the caller-CPU summary. */
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

  @Test
  void summary_pairedExtraIgnoresABurstInOneRound() {
    // Shardex's second round was hit by another process's burst: 124 µs/op against direct's 80
    List<Report.Row> rows = Report.withRatios(List.of(cpuRow(Contender.DIRECT, 80, 80, 80),
        cpuRow(Contender.SHARDEX, 84, 124, 84)));
    String s = Targets.summary(rows, List.of(), null);
    assertTrue(s.matches("(?s).*vs direct, median of 1 cells\\s+17\\.33 us.*"), s);
    assertTrue(s.matches("(?s).*median over rounds of the per-round difference\\s+4\\.00 us.*"), s);
    assertTrue(s.matches("(?s).*Shardex / direct, median of the same cells\\s+1\\.217 .*"), s);
    assertTrue(s.matches("(?s).*direct's caller CPU per statement, median of the same cells\\s+80\\.0 us.*"), s);
  }

  private static Report.Row cpuRow(String contender, double... roundCpu) {
    double overall = java.util.Arrays.stream(roundCpu).average().orElseThrow();
    return new Report.Row(Workload.POINT_SELECT, false, 1, contender, 100, 100, 100, 1, 2, overall, overall,
        new double[] {100, 100, 100}, roundCpu, Double.NaN, Double.NaN);
  }

  private static Report.Row row(String contender, double... rounds) {
    return new Report.Row(Workload.POINT_SELECT, false, 1, contender, rounds[0], rounds[0], rounds[0], 1, 2, 3, 4, rounds,
        new double[rounds.length], Double.NaN, Double.NaN);
  }
}
