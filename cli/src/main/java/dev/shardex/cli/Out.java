package dev.shardex.cli;

import dev.shardex.directory.move.Progress;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a command's results go: human tables (the default) or one JSON document ({@code --json})
 * on stdout; progress and warnings on stderr, so a script can pipe stdout into {@code jq}.
 */
final class Out {
  private final PrintWriter out;
  private final PrintWriter err;
  private final boolean json;
  private final boolean interactive;

  Out(PrintWriter out, PrintWriter err, boolean json, boolean interactive) {
    this.out = out;
    this.err = err;
    this.json = json;
    this.interactive = interactive;
  }

  boolean json() {
    return json;
  }

  /** The result: {@code human} unless --json, then the JSON document. */
  void result(Object jsonValue, Runnable human) {
    if (json) {
      out.println(Json.write(jsonValue));
    } else {
      human.run();
    }
    out.flush();
  }

  void line(String text) {
    out.println(text);
    out.flush();
  }

  void warn(String text) {
    err.println(text);
    err.flush();
  }

  /** Prints rows as aligned columns under a header. */
  void table(List<String> header, List<List<Object>> rows) {
    int[] widths = new int[header.size()];
    List<List<String>> cells = new ArrayList<>();
    cells.add(header);
    for (List<Object> row : rows) {
      cells.add(row.stream().map(v -> v == null ? "-" : v.toString()).toList());
    }
    for (List<String> row : cells) {
      for (int i = 0; i < widths.length; i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    for (List<String> row : cells) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < widths.length; i++) {
        String cell = row.get(i);
        line.append(i == widths.length - 1 ? cell : String.format("%-" + widths[i] + "s  ", cell));
      }
      out.println(line.toString().stripTrailing());
    }
    out.flush();
  }

  /**
   * A progress bar on stderr: redrawn in place on a terminal, otherwise one line per tenth (and at
   * the end), so logs of scripted runs stay short.
   */
  Progress progress(String what) {
    return new Progress() {
      private long lastTenth = -1;

      @Override
      public synchronized void update(long done, long total, String label) {
        long tenth = total <= 0 ? 10 : done * 10 / total;
        if (interactive) {
          int filled = (int) Math.min(30, total <= 0 ? 30 : done * 30 / total);
          err.print("\r" + what + " [" + "#".repeat(filled) + " ".repeat(30 - filled) + "] " + done + "/" + total + " " + label + "\u001b[K");
          if (done >= total) {
            err.println();
          }
        } else if (tenth != lastTenth || done >= total) {
          err.println(what + ": " + done + "/" + total + " " + label);
        }
        lastTenth = tenth;
        err.flush();
      }
    };
  }
}
