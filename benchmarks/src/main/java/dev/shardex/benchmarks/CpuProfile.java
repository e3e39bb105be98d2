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
 * Reads {@link CallerCpu}'s CPU profile (async-profiler's collapsed stacks) of its measured blocks:
 * the samples of operations that went through Shardex, those that went to Connector/J directly, and
 * of Shardex's, the ones outside Connector/J (Shardex's own code, HikariCP's borrow and return, its
 * caches). Both contenders ran the same operations side by side, so sample counts compare directly;
 * Shardex's own share is the part of its extra cost a change to the driver can move.
 */
final class CpuProfile {
  private static final String DRIVER = "dev/shardex/driver/";
  private static final String CONNECTOR_J = "com/mysql/";

  private long shardex;
  private long direct;
  private long own;
  private final Map<String, Long> ownByFrame = new HashMap<>();

  private CpuProfile() {}

  static CpuProfile read(Path collapsed) throws IOException {
    CpuProfile p = new CpuProfile();
    for (String line : Files.readAllLines(collapsed)) {
      int space = line.lastIndexOf(' ');
      if (line.startsWith("[main") && line.contains("CallerCpu.block")) {
        p.add(List.of(line.substring(0, space).split(";")), Long.parseLong(line.substring(space + 1)));
      }
    }
    return p;
  }

  private void add(List<String> frames, long samples) {
    boolean viaShardex = frames.stream().anyMatch(f -> f.startsWith(DRIVER));
    if (!viaShardex) {
      direct += frames.stream().anyMatch(f -> f.startsWith(CONNECTOR_J)) ? samples : 0;
      return;
    }
    shardex += samples;
    if (insideConnectorJ(frames)) {
      return;
    }
    own += samples;
    Set<String> seen = new HashSet<>();
    for (String f : frames) {
      if (f.startsWith("dev/shardex/") && !f.startsWith("dev/shardex/benchmarks/") && seen.add(f)) {
        ownByFrame.merge(f, samples, Long::sum);
      }
    }
  }

  /** Whether the innermost frame of a library the statement passes through is Connector/J's. */
  private static boolean insideConnectorJ(List<String> frames) {
    for (int i = frames.size() - 1; i >= 0; i--) {
      String f = frames.get(i);
      if (f.startsWith(CONNECTOR_J)) {
        return true;
      }
      if (f.startsWith("dev/shardex/") || f.startsWith("com/zaxxer/") || f.startsWith("com/github/benmanes/")) {
        return false;
      }
    }
    return false;
  }

  /** Per operation of each contender, in µs: {@code operations} each contender ran while profiled. */
  void print(PrintStream out, long operations) {
    double us = intervalMicros() / operations;
    out.printf(Locale.ROOT, "profile: direct %.2f us/op, Shardex %.2f us/op, of which Shardex's own (outside"
        + " Connector/J) %.2f us/op%n", direct * us, shardex * us, own * us);
    ownByFrame.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(25)
        .forEach(e -> out.printf(Locale.ROOT, "  %6.3f us/op  %s%n", e.getValue() * us, e.getKey().replace('/', '.')));
  }

  private static double intervalMicros() {
    String s = System.getProperty("cpu.interval", "250us");
    return s.endsWith("us") ? Double.parseDouble(s.substring(0, s.length() - 2))
        : s.endsWith("ms") ? 1000 * Double.parseDouble(s.substring(0, s.length() - 2)) : Double.parseDouble(s) / 1000;
  }
}
