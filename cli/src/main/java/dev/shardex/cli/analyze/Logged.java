package dev.shardex.cli.analyze;

/**
 * One statement as an input gives it: the connection that ran it (-1 when the input has none:
 * digests), its text, how many executions it stands for (1 in a log, COUNT_STAR in a digest), the
 * time they took in seconds (NaN when the input does not say), and whether the text is already
 * normalised ({@code ?} for values: digest and fingerprint texts) rather than a statement as sent.
 */
record Logged(long connection, String sql, long count, double seconds, boolean normalised) {
  static Logged sent(long connection, String sql, double seconds) {
    return new Logged(connection, sql, 1, seconds, false);
  }

  /** The connection ended (a general log's Quit): an open transaction there never committed. */
  static Logged quit(long connection) {
    return new Logged(connection, null, 0, Double.NaN, false);
  }

  boolean isQuit() {
    return sql == null;
  }

  boolean timed() {
    return !Double.isNaN(seconds);
  }
}
