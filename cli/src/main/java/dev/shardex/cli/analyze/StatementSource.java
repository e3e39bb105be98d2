package dev.shardex.cli.analyze;

/**
 * An input of statements, read as a stream: a log is never held in memory. {@code progress}
 * hears how much of the input is read (bytes of a file, rows of a table) out of {@link #size}.
 */
interface StatementSource {
  /** Receives each statement in input order. */
  @FunctionalInterface
  interface Sink {
    void accept(Logged statement) throws java.sql.SQLException;
  }

  /** Hears how far the read has come. */
  @FunctionalInterface
  interface Progress {
    void at(long done, long total);
  }

  void read(Sink sink, Progress progress) throws java.io.IOException, java.sql.SQLException;

  /** The input's size in the unit {@code progress} counts (bytes of a file), or -1 when unknown. */
  long size();

  /** What this input is, for the report: "general log app.log". */
  String describe();

  /** Whether the input has connection ids, so transactions can be rebuilt. */
  default boolean hasConnections() {
    return false;
  }
}
