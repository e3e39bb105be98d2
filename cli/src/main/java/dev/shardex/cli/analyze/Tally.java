package dev.shardex.cli.analyze;

import java.util.LinkedHashMap;
import java.util.Map;

/** Statements (executions) and their time, per {@link Route}. Time only where the input gives it. */
final class Tally {
  private final long[] counts = new long[Route.values().length];
  private final double[] seconds = new double[Route.values().length];
  private long timed;

  void add(Route r, long count, double secs) {
    counts[r.ordinal()] += count;
    if (!Double.isNaN(secs)) {
      seconds[r.ordinal()] += secs;
      timed += count;
    }
  }

  long count(Route r) {
    return counts[r.ordinal()];
  }

  double seconds(Route r) {
    return seconds[r.ordinal()];
  }

  /** Statements that routing judges: all but IGNORED. */
  long scored() {
    long n = 0;
    for (Route r : Route.SCORED) {
      n += count(r);
    }
    return n;
  }

  double scoredSeconds() {
    double s = 0;
    for (Route r : Route.SCORED) {
      s += seconds(r);
    }
    return s;
  }

  boolean hasTime() {
    return timed > 0;
  }

  /** The share (0..1) of scored statements that go this way. */
  double share(Route r) {
    long n = scored();
    return n == 0 ? 0 : (double) count(r) / n;
  }

  double timeShare(Route r) {
    double s = scoredSeconds();
    return s <= 0 ? 0 : seconds(r) / s;
  }

  /** {"one": {"count": n, "share": 0.93, "seconds": s, "time_share": t}, ...} */
  Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    for (Route r : Route.values()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("count", count(r));
      if (r != Route.IGNORED) {
        e.put("share", Figures.round(share(r)));
        if (hasTime()) {
          e.put("seconds", Figures.round(seconds(r)));
          e.put("time_share", Figures.round(timeShare(r)));
        }
      }
      m.put(r.json(), e);
    }
    m.put("scored", scored());
    return m;
  }
}
