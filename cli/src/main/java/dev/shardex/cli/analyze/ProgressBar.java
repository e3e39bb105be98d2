package dev.shardex.cli.analyze;

import java.io.PrintWriter;

/**
 * Reading progress on stderr, so stdout stays the report: redrawn in place on a terminal; for a
 * large input read by a script (over {@link #LARGE} bytes), one line per tenth; otherwise silent.
 */
final class ProgressBar {
  static final long LARGE = 64L << 20;

  private final PrintWriter err;
  private final boolean terminal;
  private String what;
  private boolean shown;
  private long last = -1;

  ProgressBar(PrintWriter err, boolean terminal) {
    this.err = err;
    this.terminal = terminal;
  }

  void start(String what, long size) {
    this.what = what;
    this.shown = terminal || size > LARGE;
    this.last = -1;
  }

  void at(long done, long total) {
    if (!shown || total <= 0) {
      return;
    }
    long percent = Math.min(100, done * 100 / total);
    if (percent == last || (!terminal && percent / 10 == last / 10 && percent < 100)) {
      return;
    }
    last = percent;
    if (terminal) {
      int filled = (int) (percent * 30 / 100);
      err.print("\r" + what + " [" + "#".repeat(filled) + " ".repeat(30 - filled) + "] " + percent + "%\u001b[K");
    } else {
      err.println(what + ": " + percent + "%");
    }
    err.flush();
  }

  void done() {
    if (shown && terminal && last >= 0) {
      err.println();
      err.flush();
    }
  }
}
