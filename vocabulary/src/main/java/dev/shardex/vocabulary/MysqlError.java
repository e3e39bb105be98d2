package dev.shardex.vocabulary;

import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTransactionRollbackException;

/**
 * The server errors Shardex reacts to by their vendor code, and the few it answers itself as one
 * MySQL server would (same text, SQLState and code, so an application's handler for the server's
 * error still matches). Reading an exception's code is {@link ErrorKind#server}'s job alone.
 */
public enum MysqlError {
  TOO_MANY_CONNECTIONS(1040, "08004"),
  DATABASE_ACCESS_DENIED(1044, "42000"),
  ACCESS_DENIED(1045, "28000"),
  NOT_NULL(1048, "23000"),
  UNKNOWN_DATABASE(1049, "42000"),
  UNKNOWN_COLUMN(1054, "42S22"),
  DUPLICATE_COLUMN(1060, "42S21"),
  DUPLICATE_KEY_NAME(1061, "42000"),
  DUPLICATE_ENTRY(1062, "23000"),
  HOST_BLOCKED(1129, "HY000"),
  HOST_NOT_ALLOWED(1130, "HY000"),
  NO_SUCH_TABLE(1146, "42S02"),
  /** Connector/J reports it as 40001, as it does a deadlock: the statement (or transaction) may be run again. */
  LOCK_WAIT_TIMEOUT(1205, "40001"),
  DEADLOCK(1213, "40001"),
  SUBQUERY_ROWS(1242, "21000");

  private final int code;
  private final String sqlState;

  MysqlError(int code, String sqlState) {
    this.code = code;
    this.sqlState = sqlState;
  }

  public int code() {
    return code;
  }

  /** The entry for a vendor code, or null for a code Shardex does not react to. */
  static MysqlError of(int code) {
    for (MysqlError m : values()) {
      if (m.code == code) {
        return m;
      }
    }
    return null;
  }

  /** The server's own error with this text, in the JDBC subclass Connector/J would give it. */
  public SQLException exception(String message) {
    return switch (sqlState.substring(0, 2)) {
      case "23" -> new SQLIntegrityConstraintViolationException(message, sqlState, code);
      case "40" -> new SQLTransactionRollbackException(message, sqlState, code);
      case "42" -> new SQLSyntaxErrorException(message, sqlState, code);
      case "21" -> new SQLNonTransientException(message, sqlState, code);
      default -> new SQLException(message, sqlState, code);
    };
  }
}
