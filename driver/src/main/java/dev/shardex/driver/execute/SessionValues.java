package dev.shardex.driver.execute;

import dev.shardex.driver.sql.SessionFunctions;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;

/**
 * What {@code LAST_INSERT_ID()}, {@code ROW_COUNT()} and {@code FOUND_ROWS()} answer on this
 * logical connection, kept here because no shard session saw all of its statements. The rules are
 * MariaDB's, as measured through Connector/J with the options Shardex gives its shard connections
 * ({@code LastInsertIdTest} compares both):
 * <ul>
 *   <li>LAST_INSERT_ID: the first id the last id-generating INSERT generated (a multi-row INSERT's
 *       first row), or the value of the last {@code LAST_INSERT_ID(expr)} evaluated; unchanged by
 *       a statement that generated none, by an explicit id, by a failed statement and by ROLLBACK.
 *   <li>ROW_COUNT: the update count the statement reported (matched rows for UPDATE, since
 *       Connector/J sets CLIENT_FOUND_ROWS); -1 after a SELECT and after a failed statement; 0 after
 *       SET, DDL, BEGIN/COMMIT/ROLLBACK.
 *   <li>FOUND_ROWS: after {@code SELECT SQL_CALC_FOUND_ROWS}, the rows it would have returned
 *       without LIMIT; unchanged by statements other than SELECT and by failures. After a SELECT
 *       without it (the number of rows it returned), or one across shards that groups or
 *       de-duplicates, the driver does not know it and refuses it by name.
 * </ul>
 * Updates write fields only: a statement that reads none of these allocates nothing for them.
 */
public final class SessionValues implements SessionFunctions.Values {
  private long lastInsertId;
  /** A statement that made a shard generate an id the driver could not read (null when the value is known), and why. */
  private String idUnknownSql;
  private String idUnknownWhy;
  private long rowCount;
  private long foundRows;
  /** Why FOUND_ROWS() is not known (null when it is), the statement that left it so, and the fix. */
  private String uncounted = "no SELECT has run on this connection yet";
  private String uncountedSql;
  private String uncountedFix = CALC_FIRST;

  static final String CALC_FIRST = "run SELECT SQL_CALC_FOUND_ROWS ... LIMIT ... first, then SELECT FOUND_ROWS()";

  @Override
  public String lastInsertId() throws SQLException {
    if (idUnknownSql != null) {
      throw ShardexError.UNSUPPORTED.exception("LAST_INSERT_ID() after '" + dev.shardex.driver.sql.SqlLexer
          .abbreviate(idUnknownSql) + "' (" + idUnknownWhy + ")",
          "run that INSERT as a statement of its own before reading LAST_INSERT_ID(), or read getGeneratedKeys()");
    }
    return Long.toUnsignedString(lastInsertId);
  }

  /** The value, or 0 while it is unknown (what a shard session is given before LAST_INSERT_ID(expr) runs there). */
  public long lastInsertIdOrZero() {
    return idUnknownSql == null ? lastInsertId : 0;
  }

  /** Whether LAST_INSERT_ID() is known. */
  public boolean lastInsertIdKnown() {
    return idUnknownSql == null;
  }

  /**
   * A statement whose shard may have generated an id the driver could not read (a batch entry, a
   * multi-statement text that failed part-way): LAST_INSERT_ID() is refused, naming it, until the next id.
   */
  public void generatedUnseen(String sql, String why) {
    idUnknownSql = sql;
    idUnknownWhy = why;
  }

  @Override
  public String rowCount() {
    return Long.toString(rowCount);
  }

  @Override
  public String foundRows() throws SQLException {
    if (uncounted != null) {
      String after = uncountedSql == null ? "" : " after '" + dev.shardex.driver.sql.SqlLexer.abbreviate(uncountedSql) + "'";
      throw ShardexError.UNSUPPORTED.exception("FOUND_ROWS()" + after + " (" + uncounted + ")", uncountedFix);
    }
    return Long.toString(foundRows);
  }

  /** A statement that generated or set an id (unsigned); 0 (nothing generated) leaves the value. */
  public void generated(long id) {
    if (id != 0) {
      lastInsertId = id;
      idUnknownSql = null;
    }
  }

  /** An id set to exactly this value (LAST_INSERT_ID(expr) read back from the shard), 0 included. */
  public void setId(long id) {
    lastInsertId = id;
    idUnknownSql = null;
  }

  /** An update count: a write's rows, or 0 for SET, DDL and transaction statements. */
  public void updated(long count) {
    rowCount = count;
  }

  /** A SELECT that ran: ROW_COUNT() is -1, FOUND_ROWS() the given count. */
  public void selected(long found) {
    rowCount = -1;
    foundRows = found;
    uncounted = null;
  }

  /**
   * A SELECT whose FOUND_ROWS() the driver does not know: later reads are refused naming it, why
   * and the fix. The arguments are kept as they are (no text is built for a statement nobody asks about).
   */
  public void selectedUncounted(String sql, String why, String fix) {
    rowCount = -1;
    uncountedSql = sql;
    uncounted = why;
    uncountedFix = fix;
  }

  /** A statement that failed: ROW_COUNT() is -1, the rest stays. */
  public void failed() {
    rowCount = -1;
  }
}
