package dev.shardex.cli.analyze;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MySQL's and MariaDB's general query log ({@code general_log=1}, {@code log_output=FILE}). An entry
 * is {@code [time] id command<TAB>argument}; MariaDB prints the time only when it changes
 * ({@code 231127 16:30:12}), MySQL on every line ({@code 2023-11-27T16:30:12.123456Z}). A line that
 * starts no entry continues the statement before it (multi-line SQL). {@code Query} and
 * {@code Execute} lines are statements (a server-side prepared statement's Execute carries its
 * values); {@code Quit} ends the connection; Prepare, Connect and the rest are skipped. It is the one
 * input with connection ids, so transactions can be rebuilt from it.
 */
final class GeneralLog extends LogFile {
  private static final Pattern ENTRY = Pattern.compile(
      "^(?:\\d{6}\\s+\\d{1,2}:\\d{2}:\\d{2}|\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z?)?\\s+(\\d+)\\s(Connect|Query|Prepare|Execute"
          + "|Close stmt|Quit|Init DB|Field List|Refresh|Statistics|Processlist|Kill|Ping|Change user|Reset stmt"
          + "|Set option|Fetch|Long Data|Binlog Dump|Daemon|Debug|Connect Out|Register Slave|Error)\\t?(.*)$");

  private final Pending pending = new Pending();

  GeneralLog(Path file) {
    super(file);
  }

  @Override
  void line(String line, Sink sink) throws SQLException {
    Matcher m = ENTRY.matcher(line);
    if (!m.matches()) {
      pending.append(line);
      return;
    }
    pending.flush(sink);
    long connection = Long.parseLong(m.group(1));
    String command = m.group(2);
    if (command.equals("Query") || command.equals("Execute")) {
      pending.start(connection, m.group(3));
    } else if (command.equals("Quit")) {
      sink.accept(Logged.quit(connection));
    }
  }

  @Override
  void end(Sink sink) throws SQLException {
    pending.flush(sink);
  }

  @Override
  public String describe() {
    return "general log " + file.getFileName();
  }

  /** The statement being read: its continuation lines may follow. */
  private static final class Pending {
    private long connection = -1;
    private final StringBuilder text = new StringBuilder();

    void start(long connection, String first) {
      this.connection = connection;
      text.setLength(0);
      text.append(first);
    }

    void append(String line) {
      if (connection >= 0) {
        text.append('\n').append(line);
      }
    }

    void flush(Sink sink) throws SQLException {
      if (connection >= 0) {
        sink.accept(Logged.sent(connection, text.toString(), Double.NaN));
        connection = -1;
      }
    }
  }
}
