package dev.shardex.vocabulary;

/**
 * The SQLStates Shardex raises, one per meaning (pgjdbc's {@code PSQLState}). Two choices matter to
 * pools in front of the driver: a refused statement is {@link #REFUSED} (0AS00), never 0A000,
 * which HikariCP reads as a dead connection; an unreachable shard or directory is class 57, never
 * 08, since the logical connection and its other shards keep working.
 */
public enum SqlState {
  /** 07001: a parameter was not set. */
  PARAMETER_NOT_SET("07001"),
  /** 07009: a parameter or descriptor index out of range. */
  BAD_INDEX("07009"),
  /** 08001: the URL names no server Shardex can reach (the client could not connect). */
  CANNOT_CONNECT("08001"),
  /** 08003: the logical connection is closed. */
  CONNECTION_CLOSED("08003"),
  /** 0AS00: a statement Shardex refuses by its rules; the connection stays healthy. */
  REFUSED("0AS00"),
  /** 22003: a number out of range (a NaN or infinite parameter, a LOB position). */
  NUMERIC_RANGE("22003"),
  /** 22004: a NULL where a value is needed (the shard key). */
  NULL_VALUE("22004"),
  /** 22018: a value that is not of the key's type. */
  BAD_VALUE("22018"),
  /** 23000: an integrity constraint (a unique value held twice). */
  INTEGRITY("23000"),
  /** 24000: a result set read with no current row. */
  INVALID_CURSOR("24000"),
  /** 25006: a write to a read-only shard. */
  READ_ONLY("25006"),
  /** 28000: the user or password was refused. */
  ACCESS_DENIED("28000"),
  /** 3B001: a savepoint that does not exist, or one outside a transaction. */
  SAVEPOINT("3B001"),
  /** 3D000: no database named (an analyze schema URL without one). */
  NO_DATABASE("3D000"),
  /** 40000: the transaction was rolled back. */
  ROLLED_BACK("40000"),
  /** 42000: the statement's text (syntax, hints, declarations). */
  SYNTAX("42000"),
  /** 55000: an object in a state that does not allow it (a move, a shard still holding keys). */
  WRONG_STATE("55000"),
  /** 55006: an object another process is using (a move being run). */
  IN_USE("55006"),
  /** 57S01: a shard or the directory is unreachable for now; retry. */
  UNREACHABLE("57S01"),
  /** 57S02: a shard needs an operator (OFFLINE, unknown, refusing connections). */
  NEEDS_OPERATOR("57S02"),
  /** 70100: the statement was cancelled. */
  CANCELLED("70100"),
  /** HY000: a general error, named by the Shardex id in the message. */
  GENERAL("HY000"),
  /** HY008: an operation cancelled (a thread interrupted while it waited). */
  INTERRUPTED("HY008"),
  /** HY010: a JDBC call out of order (an object used after close). */
  SEQUENCE("HY010"),
  /** HY024: an option with an invalid value. */
  BAD_OPTION("HY024"),
  /** HYT00: a time-out (pool, frozen key, query, acknowledgements). */
  TIMEOUT("HYT00"),
  /** S0022: a column label that is not in the result. */
  NO_SUCH_COLUMN("S0022"),
  /** S1002: a column index out of range. */
  BAD_COLUMN("S1002");

  private final String code;

  SqlState(String code) {
    this.code = code;
  }

  /** The five characters JDBC's {@code SQLException.getSQLState()} returns. */
  public String code() {
    return code;
  }
}
