package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.Directory;
import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * The move protocol's ack: a driver vouches for a change to key k (clients.applied_change) only
 * once the writes to k it had in flight before that change have finished (committed or rolled back).
 */
class InFlightAckTest {
  static long appliedChange(String clientId) throws SQLException {
    try (Connection c = TestCluster.sandbox().connectDirectory();
        PreparedStatement ps = c.prepareStatement("SELECT applied_change FROM clients WHERE id = ?")) {
      ps.setString(1, clientId);
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next(), "client row of " + clientId);
        return rs.getLong(1);
      }
    }
  }

  @Test
  void aKeyChangeIsAcknowledgedOnlyAfterTheOpenTransactionWritingTheKeyEnds() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS ack_rows (user_id BIGINT, v INT)",
        "INSERT INTO ack_rows (user_id, v) VALUES (91001, 0), (91002, 0)");
    try (Connection c = TestCluster.connect("shardex.autoPoll=false&shardex.instance=ack"); Statement s = c.createStatement()) {
      Directory dir = TestCluster.cluster(c).directory();
      dir.pollNow();
      int shard = dir.store().lookup(KeySpace.DEFAULT, "91001").shardId();
      c.setAutoCommit(false);
      assertEquals(1, s.executeUpdate("UPDATE ack_rows SET v = 1 WHERE user_id = 91001"));

      dir.store().assign(KeySpace.DEFAULT, "91001", shard); // a logged change to the key, as a move's freeze is
      long change = dir.store().lastChange();
      dir.pollNow();
      assertTrue(appliedChange(dir.clientId()) < change, "not acked while the transaction writing the key is open");

      dir.store().assign(KeySpace.DEFAULT, "91002", dir.store().lookup(KeySpace.DEFAULT, "91002").shardId());
      dir.pollNow();
      assertTrue(appliedChange(dir.clientId()) < change, "later changes wait behind the unacknowledged one");

      c.commit();
      dir.pollNow();
      assertTrue(appliedChange(dir.clientId()) >= dir.store().lastChange(), "acked once the transaction committed");
    }
  }

  @Test
  void writesInAutocommitAreAcknowledgedAtTheNextPoll() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS ack_rows (user_id BIGINT, v INT)");
    try (Connection c = TestCluster.connect("shardex.autoPoll=false&shardex.instance=ack2"); Statement s = c.createStatement()) {
      Directory dir = TestCluster.cluster(c).directory();
      s.executeUpdate("INSERT INTO ack_rows (user_id, v) VALUES (91003, 0)");
      dir.store().assign(KeySpace.DEFAULT, "91003", dir.store().lookup(KeySpace.DEFAULT, "91003").shardId());
      dir.pollNow();
      assertEquals(dir.store().lastChange(), appliedChange(dir.clientId()));
    }
  }
}
