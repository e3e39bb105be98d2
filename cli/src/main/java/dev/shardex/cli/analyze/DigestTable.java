package dev.shardex.cli.analyze;

import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * {@code performance_schema.events_statements_summary_by_digest}, read live from a server: one row
 * per normalised statement, weighted by {@code COUNT_STAR}, timed by {@code SUM_TIMER_WAIT}
 * (picoseconds). MySQL 8's {@code QUERY_SAMPLE_TEXT} (a real statement) is used when present,
 * else the digest text with its {@code ?} markers. It has no connections, so no transactions.
 * Performance Schema is off by default on MariaDB: start the server with
 * {@code --performance-schema=ON}.
 */
final class DigestTable implements StatementSource {
  private final String url;
  private final Properties credentials;
  private final String schema;

  /** {@code schema} keeps only that database's digests (null: all but the server's own). */
  DigestTable(String url, Properties credentials, String schema) {
    this.url = url;
    this.credentials = credentials;
    this.schema = schema;
  }

  @Override
  public void read(Sink sink, Progress progress) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, credentials); Statement s = c.createStatement()) {
      requireOn(s);
      int max = maxDigestLength(s);
      boolean sample = hasSampleColumn(c);
      String sql = "SELECT DIGEST_TEXT, COUNT_STAR, SUM_TIMER_WAIT" + (sample ? ", QUERY_SAMPLE_TEXT" : ", NULL")
          + " FROM performance_schema.events_statements_summary_by_digest WHERE DIGEST_TEXT IS NOT NULL AND "
          + (schema == null ? "(SCHEMA_NAME IS NULL OR SCHEMA_NAME NOT IN ('mysql','performance_schema','information_schema','sys'))"
              : "SCHEMA_NAME = " + quote(schema));
      try (ResultSet rs = s.executeQuery(sql)) {
        long rows = 0;
        while (rs.next()) {
          String sampleText = rs.getString(4);
          boolean useSample = sampleText != null && !sampleText.isBlank() && !sampleText.endsWith("...");
          String text = useSample ? sampleText : cut(rs.getString(1), max);
          sink.accept(new Logged(-1, text, rs.getLong(2), rs.getLong(3) / 1e12, !useSample));
          progress.at(++rows, -1);
        }
      }
    }
  }

  private static void requireOn(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT @@performance_schema")) {
      if (rs.next() && rs.getInt(1) == 0) {
        throw ShardexError.ANALYZE_NO_DIGESTS.exception();
      }
    }
  }

  /** MariaDB cuts a digest at the limit without saying so: mark it as MySQL does, so it is counted as truncated. */
  private static String cut(String digest, int max) {
    return digest.getBytes(java.nio.charset.StandardCharsets.UTF_8).length >= max - 4 && !digest.endsWith("...")
        ? digest + " ..." : digest;
  }

  private static int maxDigestLength(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT @@performance_schema_max_digest_length")) {
      return rs.next() ? rs.getInt(1) : 1024;
    }
  }

  private static boolean hasSampleColumn(Connection c) throws SQLException {
    try (ResultSet rs = c.getMetaData().getColumns("performance_schema", null, "events_statements_summary_by_digest",
        "QUERY_SAMPLE_TEXT")) {
      return rs.next();
    }
  }

  private static String quote(String s) {
    return "'" + s.replace("\\", "\\\\").replace("'", "''") + "'";
  }

  @Override
  public long size() {
    return -1;
  }

  @Override
  public String describe() {
    return "digest table at " + dev.shardex.directory.Redact.url(url);
  }
}
