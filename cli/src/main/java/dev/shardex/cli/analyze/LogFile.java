package dev.shardex.cli.analyze;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;

/**
 * A server log read line by line ({@link GeneralLog}, {@link SlowLog}): its size for the progress
 * bar, the read loop reporting progress every 16,384 lines, and connection ids (both logs have them).
 */
abstract class LogFile implements StatementSource {
  final Path file;

  LogFile(Path file) {
    this.file = file;
  }

  /** Takes one line; a statement is handed to {@code sink} once the line after it shows it ended. */
  abstract void line(String line, Sink sink) throws SQLException;

  /** The input ended: hand over the statement still being read. */
  abstract void end(Sink sink) throws SQLException;

  @Override
  public final void read(Sink sink, Progress progress) throws IOException, SQLException {
    long total = size();
    try (LineReader in = new LineReader(file)) {
      long lines = 0;
      for (String line = in.next(); line != null; line = in.next()) {
        line(line, sink);
        if ((++lines & 0x3FFF) == 0) {
          progress.at(in.bytesRead(), total);
        }
      }
      end(sink);
      progress.at(total, total);
    }
  }

  @Override
  public long size() {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return -1;
    }
  }

  @Override
  public boolean hasConnections() {
    return true;
  }
}
