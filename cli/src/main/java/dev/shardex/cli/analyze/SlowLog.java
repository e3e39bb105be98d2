package dev.shardex.cli.analyze;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The slow query log (all statements with {@code long_query_time=0}). An entry is a block of
 * {@code # } header lines ({@code Query_time}, and the connection as MariaDB's {@code Thread_id:}
 * or MySQL's {@code Id:}) followed by the statement, ended by {@code ;}; the {@code use db;} and
 * {@code SET timestamp=...;} lines the server adds before it are not the application's. Query_time
 * weights the report by time.
 */
final class SlowLog extends LogFile {
  private static final Pattern QUERY_TIME = Pattern.compile("Query_time:\\s*([0-9.]+)");
  private static final Pattern THREAD = Pattern.compile("(?:Thread_id|\\bId):\\s*(\\d+)");
  private static final Pattern SERVER_LINE = Pattern.compile("^(?:use [^;]+;|SET timestamp=\\d+;)$|started with:$"
      + "|^Tcp port: |^Time\\s+Id\\s+Command", Pattern.CASE_INSENSITIVE);

  private final Entry entry = new Entry();

  SlowLog(Path file) {
    super(file);
  }

  @Override
  void line(String line, Sink sink) throws SQLException {
    if (line.startsWith("# ")) {
      entry.flush(sink);
      entry.header(line);
    } else if (!SERVER_LINE.matcher(line).find()) {
      entry.text(line);
    }
  }

  @Override
  void end(Sink sink) throws SQLException {
    entry.flush(sink);
  }

  @Override
  public String describe() {
    return "slow log " + file.getFileName();
  }

  /** The entry being read: its header's figures, then its statement's lines. */
  private static final class Entry {
    private long connection = -1;
    private double seconds = Double.NaN;
    private final StringBuilder text = new StringBuilder();

    void header(String line) {
      Matcher t = QUERY_TIME.matcher(line);
      if (t.find()) {
        seconds = Double.parseDouble(t.group(1));
      }
      Matcher id = THREAD.matcher(line);
      if (id.find()) {
        connection = Long.parseLong(id.group(1));
      }
    }

    void text(String line) {
      text.append(text.length() == 0 ? "" : "\n").append(line);
    }

    void flush(Sink sink) throws SQLException {
      String sql = text.toString().strip();
      if (sql.endsWith(";")) {
        sql = sql.substring(0, sql.length() - 1).stripTrailing();
      }
      if (!sql.isEmpty()) {
        sink.accept(Logged.sent(connection, sql, seconds));
        seconds = Double.NaN; // the next entry's header gives its own
      }
      text.setLength(0);
    }
  }
}
