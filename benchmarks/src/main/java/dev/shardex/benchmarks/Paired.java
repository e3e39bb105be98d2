package dev.shardex.benchmarks;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Paired differences of two settings measured side by side (round i of one against round i of the
 * other): their median, with a 95% interval from resampling the rounds (a percentile bootstrap,
 * seeded, so a run's figures can be recomputed) and the count of rounds where the first was the
 * larger (a sign test: about half when they do not differ).
 */
record Paired(double median, double low, double high, int above, int rounds) {
  private static final int RESAMPLES = 2_000;

  static Paired of(double[] a, double[] b) {
    double[] d = new double[a.length];
    int above = 0;
    for (int i = 0; i < a.length; i++) {
      d[i] = a[i] - b[i];
      above += d[i] > 0 ? 1 : 0;
    }
    double[] medians = new double[RESAMPLES];
    SplittableRandom random = new SplittableRandom(22);
    double[] sample = new double[d.length];
    for (int r = 0; r < RESAMPLES; r++) {
      for (int i = 0; i < d.length; i++) {
        sample[i] = d[random.nextInt(d.length)];
      }
      medians[r] = median(sample);
    }
    Arrays.sort(medians);
    return new Paired(median(d), medians[(int) (RESAMPLES * 0.025)], medians[(int) (RESAMPLES * 0.975) - 1], above,
        d.length);
  }

  /** {@code +0.42 [+0.21, +0.60]}: the median and its interval, {@code digits} after the point. */
  String text(int digits) {
    String f = "%+." + digits + "f";
    return String.format(Locale.ROOT, f + " [" + f + ", " + f + "]", median, low, high);
  }

  /** The sign test's count: rounds where the first was the larger, of all. */
  String signs() {
    return above + "/" + rounds;
  }

  static double median(double[] a) {
    double[] s = a.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  static double[] concat(double[] a, double[] b) {
    double[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }
}
