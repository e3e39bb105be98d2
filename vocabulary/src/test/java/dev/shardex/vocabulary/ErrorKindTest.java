package dev.shardex.vocabulary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLTransientConnectionException;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The one classifier, and the SQLStates pools read as "this connection is dead". */
class ErrorKindTest {
  /** HikariCP 6.3's ProxyConnection.checkException: class 08 or one of these evicts the connection. */
  private static final Set<String> HIKARI_DEAD_STATES = Set.of("0A000", "57P01", "57P02", "57P03", "01002", "JZ0C0", "JZ0C1");

  /** Errors that do mean the logical connection is not there: closed, or never opened. */
  private static final Set<ShardexError> CONNECTION_ERRORS =
      EnumSet.of(ShardexError.CLOSED, ShardexError.BAD_URL);

  @Test
  void noErrorOfAnOpenConnectionCarriesAStateThatMakesHikariEvict() {
    for (ShardexError e : ShardexError.values()) {
      String state = e.exception(new Object[8]).getSQLState();
      boolean dead = state.startsWith("08") || HIKARI_DEAD_STATES.contains(state);
      assertEquals(CONNECTION_ERRORS.contains(e), dead, e + " " + e.id() + " has SQLState " + state);
    }
  }

  @Test
  void shardexErrorsAreKnownByTheirTypeNotTheirText() {
    SQLException refusal = ShardexError.NO_KEY_WRITE.exception("DELETE", "t", "k", "k");
    assertSame(ShardexError.NO_KEY_WRITE, ShardexError.of(refusal));
    assertEquals(ErrorKind.SHARDEX, ErrorKind.of(refusal));
    SQLException lookalike = new SQLException(refusal.getMessage(), refusal.getSQLState());
    assertNull(ShardexError.of(lookalike), "a message that looks like ours is not ours");
    assertEquals(ErrorKind.DATABASE, ErrorKind.of(lookalike));
  }

  @Test
  void unreachableShardsAndLostConnectionsAreSortedApart() {
    SQLException cause = new SQLException("Communications link failure", "08S01");
    SQLException named = ShardexError.SHARD_UNREACHABLE.withCause(cause, 1, "jdbc:mysql://h:1/db", "down");
    assertEquals(ErrorKind.UNREACHABLE, ErrorKind.of(named));
    assertEquals("57S01", named.getSQLState());
    assertSame(cause, named.getCause());
    assertNull(named.getNextException(), "pools walk the next-exception chain for class 08");
    assertEquals(ErrorKind.CONNECTION_LOST, ErrorKind.of(cause));
    assertEquals(ErrorKind.CONNECTION_LOST, ErrorKind.of(new SQLTransientConnectionException("pool timeout")));
    assertEquals(ErrorKind.DATABASE, ErrorKind.of(new SQLIntegrityConstraintViolationException("Duplicate entry", "23000", 1062)));
    assertFalse(ErrorKind.DATABASE.unreachable());
    assertEquals(ErrorKind.UNREACHABLE, ErrorKind.of(ShardexError.LEASE_LAPSED.exception(1L, 2L, "dir")));
  }
}
