package dev.shardex.driver.plan;

import dev.shardex.driver.sql.JoinSplit;
import dev.shardex.driver.sql.StepLimit;
import java.util.Collections;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A lookup join's split and its step texts, kept with the split where it is cached (once per
 * statement text: jdbc.JoinQuery): the driving text with its {@code LIMIT cap+1}, and the dependent
 * text for each number of join values ({@code ... IN (?, ?, ...)}), written when first sent. Every
 * execution then sends the same String instances, so the template cache and the key IN list's cut
 * (sql.InListSplitter) find them by identity, without writing, hashing or comparing hundreds of
 * characters per batch and shard again.
 */
public final class StepTexts {
  private final JoinSplit split;
  private final String driving;
  private final String dependent;
  private final AtomicReferenceArray<String> lists;

  private StepTexts(JoinSplit split, int batch, long cap) {
    this.split = split;
    this.driving = StepLimit.text(split.driving(), cap);
    this.dependent = split.dependent();
    this.lists = new AtomicReferenceArray<>(batch + 1);
  }

  /** The split's texts for batches of at most {@code batch} values and this cap. */
  public static StepTexts of(JoinSplit split, int batch, long cap) {
    return new StepTexts(split, batch, cap);
  }

  JoinSplit split() {
    return split;
  }

  /** The driving statement, fetching one row past the cap. */
  String driving() {
    return driving;
  }

  /** The dependent statement for {@code n} join values: its text up to the list, {@code n} markers, the parenthesis. */
  String dependent(int n) {
    if (n >= lists.length()) {
      return written(n);
    }
    String text = lists.get(n);
    if (text == null) {
      text = written(n);
      lists.set(n, text); // two threads may each write it: equal texts, either is kept
    }
    return text;
  }

  private String written(int n) {
    return dependent + markers(n) + ")";
  }

  /** {@code n} parameter markers, "?, ?, ..., ?": a prefix of one text written once. */
  private static String markers(int n) {
    return n <= MARKER_COUNT ? MARKERS.substring(0, 3 * n - 2) : String.join(", ", Collections.nCopies(n, "?"));
  }

  private static final int MARKER_COUNT = 1_000;
  private static final String MARKERS = String.join(", ", Collections.nCopies(MARKER_COUNT, "?"));
}
