package dev.shardex.cli.analyze;

import java.util.Locale;

/** How figures are rounded and printed, the same in the terminal, the JSON and the HTML report. */
final class Figures {
  private Figures() {}

  /** Four decimals: a share 0.9312 prints as 93.1%. */
  static double round(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }

  static String percent(double share) {
    return String.format(Locale.ROOT, "%.1f%%", share * 100);
  }

  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  static String seconds(double s) {
    return String.format(Locale.ROOT, "%.3f s", s);
  }
}
