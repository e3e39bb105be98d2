package dev.shardex.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@link TelemetryCost}'s CPU profile (async-profiler's collapsed stacks, thread first): per
 * thread, that is per telemetry setting, the samples in all and in each frame (a frame counts once
 * per stack: its inclusive time). Both settings ran the same statements side by side, so the
 * frames one spends more samples in than the other are where its extra cost goes, and the
 * telemetry's own frames (Micrometer's, the listeners', HikariCP's metrics tracker) add up to
 * what the events cost inside the real statement.
 */
final class TelemetryProfile {
  /** Frames that run only because telemetry is on (prefixes of async-profiler's frame names). */
  private static final List<String> TELEMETRY = List.of("dev/shardex/micrometer/", "io/micrometer/",
      "dev/shardex/driver/events/", "dev/shardex/driver/jmx/", "com/zaxxer/hikari/pool/PoolBase$MetricsTrackerDelegate");

  private final double intervalMicros;
  private final Map<String, Long> total = new HashMap<>();
  private final Map<String, Map<String, Long>> frames = new HashMap<>();
  private final Map<String, Long> telemetry = new HashMap<>();

  private TelemetryProfile(double intervalMicros) {
    this.intervalMicros = intervalMicros;
  }

  static TelemetryProfile read(Path collapsed, String interval) throws IOException {
    TelemetryProfile p = new TelemetryProfile(micros(interval));
    for (String line : Files.readAllLines(collapsed)) {
      int space = line.lastIndexOf(' ');
      if (line.startsWith("[cost-") && space > 0) {
        String[] stack = line.substring(0, space).split(";");
        p.add(stack[0].substring(1, stack[0].indexOf(' ') > 0 ? stack[0].indexOf(' ') : stack[0].length() - 1),
            List.of(stack).subList(1, stack.length), Long.parseLong(line.substring(space + 1)));
      }
    }
    return p;
  }

  private void add(String thread, List<String> stack, long samples) {
    total.merge(thread, samples, Long::sum);
    Map<String, Long> byFrame = frames.computeIfAbsent(thread, t -> new HashMap<>());
    Set<String> seen = new HashSet<>();
    boolean inTelemetry = false;
    for (String f : stack) {
      if (seen.add(f)) {
        byFrame.merge(f, samples, Long::sum);
      }
      inTelemetry |= TELEMETRY.stream().anyMatch(f::startsWith);
    }
    if (inTelemetry) {
      telemetry.merge(thread, samples, Long::sum);
    }
  }

  /** Each setting's profiled CPU per statement, then the frames {@code more} spends more in than {@code base}. */
  void print(PrintStream out, long statements, String more, String base) {
    double us = intervalMicros / statements;
    total.keySet().stream().sorted().forEach(t -> out.printf(Locale.ROOT,
        "profile %-18s %6.2f us/op, of which in telemetry frames %5.2f us/op%n", t, total.get(t) * us,
        telemetry.getOrDefault(t, 0L) * us));
    Map<String, Long> a = frames.getOrDefault(more, Map.of());
    Map<String, Long> b = frames.getOrDefault(base, Map.of());
    out.printf(Locale.ROOT, "frames %s spends more in than %s (inclusive, us/op):%n", more, base);
    a.entrySet().stream().map(e -> Map.entry(e.getKey(), e.getValue() - b.getOrDefault(e.getKey(), 0L)))
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(40)
        .forEach(e -> out.printf(Locale.ROOT, "  %+7.3f  %7.3f  %s%n", e.getValue() * us, a.get(e.getKey()) * us,
            e.getKey().replace('/', '.')));
  }

  private static double micros(String interval) {
    return interval.endsWith("us") ? Double.parseDouble(interval.substring(0, interval.length() - 2))
        : interval.endsWith("ms") ? 1000 * Double.parseDouble(interval.substring(0, interval.length() - 2))
        : Double.parseDouble(interval) / 1000;
  }
}
