package dev.shardex.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/** The harness's output: the results table on stdout, the same rows as CSV, and a PNG chart of the ratios. */
final class Report {
  /** One contender on one cell, over all its rounds. */
  record Row(Workload workload, boolean fresh, int threads, String contender, double opsPerSecond, double minRound,
      double maxRound, double p50Micros, double p99Micros, double cpuMicrosPerOp, double callerCpuMicrosPerOp,
      double[] roundOps, double[] roundCallerCpu, double vsDirect, double vsShardingSphere) {

    String cell() {
      return workload.label() + (fresh ? ", fresh prepare" : "");
    }
  }

  private Report() {}

  static Row row(Workload w, boolean fresh, int threads, String contender, List<Runner.Round> rounds) {
    long ops = 0;
    long nanos = 0;
    long cpu = 0;
    long callerCpu = 0;
    double[] roundOps = new double[rounds.size()];
    double[] roundCallerCpu = new double[rounds.size()];
    double min = Double.MAX_VALUE;
    double max = 0;
    int total = 0;
    for (int i = 0; i < rounds.size(); i++) {
      Runner.Round r = rounds.get(i);
      roundOps[i] = r.opsPerSecond();
      roundCallerCpu[i] = r.callerCpuNanos() / 1e3 / Math.max(1, r.ops());
      ops += r.ops();
      nanos += r.nanos();
      cpu += r.cpuNanos();
      callerCpu += r.callerCpuNanos();
      min = Math.min(min, r.opsPerSecond());
      max = Math.max(max, r.opsPerSecond());
      total += r.latencies().length;
    }
    long[] all = new long[total];
    int at = 0;
    for (Runner.Round r : rounds) {
      System.arraycopy(r.latencies(), 0, all, at, r.latencies().length);
      at += r.latencies().length;
    }
    Arrays.sort(all);
    return new Row(w, fresh, threads, contender, ops * 1e9 / nanos, min, max, percentile(all, 0.50) / 1e3,
        percentile(all, 0.99) / 1e3, cpu / 1e3 / ops, callerCpu / 1e3 / ops, roundOps, roundCallerCpu, Double.NaN,
        Double.NaN);
  }

  static double percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int i = (int) Math.ceil(p * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  /**
   * Fills in each row's ratios to the direct and ShardingSphere rows of its cell: the median over
   * rounds of the per-round throughput ratio. A round runs the contenders back to back, so pairing
   * by round cancels most of the drift of this shared machine; the ops/s column is over all rounds.
   */
  static List<Row> withRatios(List<Row> rows) {
    List<Row> out = new ArrayList<>();
    for (Row r : rows) {
      out.add(new Row(r.workload(), r.fresh(), r.threads(), r.contender(), r.opsPerSecond(), r.minRound(), r.maxRound(),
          r.p50Micros(), r.p99Micros(), r.cpuMicrosPerOp(), r.callerCpuMicrosPerOp(), r.roundOps(), r.roundCallerCpu(),
          pairedRatio(r, find(rows, r, Contender.DIRECT)),
          pairedRatio(r, find(rows, r, Contender.SHARDING_SPHERE))));
    }
    return out;
  }

  static double pairedRatio(Row r, Row base) {
    if (base == null) {
      return Double.NaN;
    }
    int n = Math.min(r.roundOps().length, base.roundOps().length);
    double[] ratios = new double[n];
    for (int i = 0; i < n; i++) {
      ratios[i] = r.roundOps()[i] / base.roundOps()[i];
    }
    return median(ratios);
  }

  /**
   * The median over rounds of the per-round difference of caller CPU per operation: a burst of
   * another process's work that lands on one contender's round moves one difference, not the median.
   */
  static double pairedCpuExtra(Row r, Row base) {
    int n = Math.min(r.roundCallerCpu().length, base.roundCallerCpu().length);
    double[] extra = new double[n];
    for (int i = 0; i < n; i++) {
      extra[i] = r.roundCallerCpu()[i] - base.roundCallerCpu()[i];
    }
    return median(extra);
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  static Row find(List<Row> rows, Row like, String contender) {
    for (Row r : rows) {
      if (r.workload() == like.workload() && r.fresh() == like.fresh() && r.threads() == like.threads()
          && r.contender().equals(contender)) {
        return r;
      }
    }
    return null;
  }

  static void printTable(List<Row> rows, PrintStream out) {
    String format = "%-38s %3s  %-14s %8s %8s %8s %8s %8s %8s  %s%n";
    out.printf(format, "workload", "thr", "contender", "ops/s", "p50 µs", "p99 µs", "cpu µs", "×direct", "×SS",
        "round min–max ops/s");
    String previous = null;
    for (Row r : rows) {
      String cell = r.cell() + "/" + r.threads();
      if (previous != null && !previous.equals(cell)) {
        out.println();
      }
      previous = cell;
      out.printf(Locale.ROOT, format, r.cell(), r.threads(), r.contender(), fmt(r.opsPerSecond(), 0), fmt(r.p50Micros(), 0),
          fmt(r.p99Micros(), 0), fmt(r.callerCpuMicrosPerOp(), 1), fmt(r.vsDirect(), 2), fmt(r.vsShardingSphere(), 2),
          fmt(r.minRound(), 0) + "–" + fmt(r.maxRound(), 0));
    }
  }

  static String fmt(double v, int decimals) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  static void writeCsv(List<Row> rows, Path file) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("workload,fresh_prepare,threads,contender,ops_per_s,round_min_ops_per_s,round_max_ops_per_s,p50_us,p99_us,"
        + "caller_cpu_us_per_op,process_cpu_us_per_op,ratio_to_direct,ratio_to_shardingsphere");
    for (Row r : rows) {
      lines.add(String.join(",", '"' + r.workload().label() + '"', Boolean.toString(r.fresh()), Integer.toString(r.threads()),
          r.contender(), fmt(r.opsPerSecond(), 1), fmt(r.minRound(), 1), fmt(r.maxRound(), 1), fmt(r.p50Micros(), 1),
          fmt(r.p99Micros(), 1), fmt(r.callerCpuMicrosPerOp(), 2), fmt(r.cpuMicrosPerOp(), 2), fmt(r.vsDirect(), 3), fmt(r.vsShardingSphere(), 3)));
    }
    Files.createDirectories(file.getParent());
    Files.write(file, lines, StandardCharsets.UTF_8);
  }

  /** A bar chart: per cell, Shardex and ShardingSphere throughput as a fraction of direct's, with the 0.97 target line. */
  static void writeChart(List<Row> rows, Path png, String subtitle) throws IOException {
    List<String> cells = new ArrayList<>();
    List<Double> shardex = new ArrayList<>();
    List<Double> ss = new ArrayList<>();
    double top = 1.2;
    for (Row r : rows) {
      if (!r.contender().equals(Contender.SHARDEX)) {
        continue;
      }
      cells.add(shortName(r) + " ×" + r.threads());
      Row other = find(rows, r, Contender.SHARDING_SPHERE);
      double ssVsDirect = other == null ? Double.NaN : other.vsDirect();
      shardex.add(Double.isNaN(r.vsDirect()) ? 0 : r.vsDirect());
      ss.add(Double.isNaN(ssVsDirect) ? 0 : ssVsDirect); // 0: ShardingSphere not in this run
      top = Math.max(top, Math.max(shardex.get(shardex.size() - 1), ss.get(ss.size() - 1)) * 1.08);
    }
    CategoryChart chart = new CategoryChartBuilder().width(1600).height(700)
        .title("Throughput relative to direct Connector/J (1.0 = the physical limit; line = the 0.97 target) — " + subtitle)
        .xAxisTitle("workload × threads   (scatter COUNT: relative to the query on one shard holding a quarter of the data)")
        .yAxisTitle("ops/s ÷ direct ops/s").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setXAxisLabelRotation(40);
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setYAxisMax(top);
    chart.getStyler().setYAxisDecimalPattern("0.00");
    chart.getStyler().setLabelsVisible(true);
    chart.getStyler().setLabelsFontColorAutomaticEnabled(false);
    chart.getStyler().setLabelsFontColor(java.awt.Color.BLACK);
    chart.getStyler().setLabelsRotation(90);
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    chart.addSeries("Shardex", cells, shardex);
    chart.addSeries("ShardingSphere-JDBC 5.5.2", cells, ss);
    org.knowm.xchart.AnnotationLine target = new org.knowm.xchart.AnnotationLine(0.97, false, false);
    chart.getStyler().setAnnotationLineColor(java.awt.Color.RED);
    chart.addAnnotation(target);
    Files.createDirectories(png.getParent());
    String base = png.toString().replaceFirst("\\.png$", "");
    BitmapEncoder.saveBitmap(chart, base, BitmapEncoder.BitmapFormat.PNG);
  }

  private static String shortName(Row r) {
    String name = switch (r.workload()) {
      case POINT_SELECT -> "point";
      case INSERT -> "insert";
      case UPDATE -> "update";
      case TIMELINE -> "timeline";
      case SCATTER_COUNT -> "scatter COUNT";
      case MIX -> "80/20 mix";
    };
    return r.fresh() ? name + " (fresh)" : name;
  }
}
