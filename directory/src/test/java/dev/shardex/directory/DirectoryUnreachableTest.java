package dev.shardex.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** A directory that does not answer is SHX1406 (57S01), never class 08, which pools read as "this connection is dead". */
class DirectoryUnreachableTest {
  @Test
  void aDirectoryThatStopsAnsweringIsShx1406NotClass08() throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort(); // closed again below: nothing listens there
    }
    com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
    config.setJdbcUrl("jdbc:mysql://127.0.0.1:" + port + "/shardex_directory");
    config.setConnectionTimeout(250);
    config.setInitializationFailTimeout(-1);
    try (com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource(config)) {
      DirectoryStore store = new DirectoryStore(pool);
      SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, () -> store.lookup("default", "7"));
      assertSame(ShardexError.DIRECTORY_UNREACHABLE, ShardexError.of(e), e.getMessage());
      assertEquals("57S01", e.getSQLState());
      assertEquals(ErrorKind.UNREACHABLE, ErrorKind.of(e));
      org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
    }
  }
}
