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
 * Reads {@link TelemetryCost}'s CPU profile (async-profiler's collapsed stacks): per telemetry
 * setting (the frame its chunks run under, {@code TelemetryCost.asMicrometer} and so on: they share
 * one thread), the samples in all and in each frame below it (a frame counts once per stack: its
 * inclusive time). Both settings ran the same statements side by side, so the
 * frames one spends more samples in than the other are where its extra cost goes, and the
 * telemetry's own frames (Micrometer's, the listeners', HikariCP's metrics tracker) add up to
 * what the events cost inside the real statement.
 */
final class TelemetryProfile {
  /** Frames that run only because telemetry is on (prefixes of async-profiler's frame names). */
  private static final List<String> TELEMETRY = List.of("dev/shardex/micrometer/", "io/micrometer/",
      "dev/shardex/driver/events/", "dev/shardex/driver/jmx/", "com/zaxxer/hikari/pool/PoolBase$MetricsTrackerDelegate");

  /** The frame each setting's chunks run under: {@code asNone}, {@code asMicrometer}, ... */
  private static final String SETTING_FRAME = "dev/shardex/benchmarks/TelemetryCost.as";

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
      int at = line.indexOf(SETTING_FRAME);
      if (space > 0 && at >= 0) {
        int end = line.indexOf(';', at);
        String setting = setting(line.substring(at + SETTING_FRAME.length(), end < 0 ? space : end));
        List<String> stack = List.of(line.substring(end < 0 ? space : end + 1, space).split(";"));
        p.add(setting, end < 0 ? List.of() : stack, Long.parseLong(line.substring(space + 1)));
      }
    }
    return p;
  }

  /** {@code JmxMicrometer} (the frame {@code asJmxMicrometer}, maybe with a suffix): {@code jmx-micrometer}. */
  private static String setting(String frame) {
    String name = frame.replaceAll("_\\[.\\]$", "");
    for (String s : TelemetryCost.SETTINGS) {
      if (s.replace("-", "").equalsIgnoreCase(name)) {
        return s;
      }
    }
    return name;
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
        "profile %-14s %6.2f us/op, of which in telemetry frames %5.2f us/op%n", t, total.get(t) * us,
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
