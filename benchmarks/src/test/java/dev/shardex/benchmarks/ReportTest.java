package dev.shardex.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
  void summary_cpuRatioAndDirectCpuBesideTheExtra() {
    List<Report.Row> rows = Report.withRatios(List.of(cpuRow(Contender.DIRECT, 80), cpuRow(Contender.SHARDEX, 84)));
    String s = Targets.summary(rows, List.of(), null);
    org.junit.jupiter.api.Assertions.assertTrue(s.matches("(?s).*vs direct, median of 1 cells\\s+4\\.00 us.*"), s);
    org.junit.jupiter.api.Assertions.assertTrue(s.matches("(?s).*Shardex / direct, median of the same cells\\s+1\\.050 .*"), s);
    org.junit.jupiter.api.Assertions.assertTrue(s.matches("(?s).*direct's caller CPU per statement, median of the same cells\\s+80\\.0 us.*"), s);
  }

  private static Report.Row cpuRow(String contender, double callerCpu) {
    return new Report.Row(Workload.POINT_SELECT, false, 1, contender, 100, 100, 100, 1, 2, callerCpu, callerCpu,
        new double[] {100}, Double.NaN, Double.NaN);
  }

  private static Report.Row row(String contender, double... rounds) {
    return new Report.Row(Workload.POINT_SELECT, false, 1, contender, rounds[0], rounds[0], rounds[0], 1, 2, 3, 4, rounds,
        Double.NaN, Double.NaN);
  }
}
