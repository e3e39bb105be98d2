package dev.shardex.driver.moves;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.move.Drainer;
import dev.shardex.directory.move.FaultHook;
import dev.shardex.directory.move.MoveOptions;
import dev.shardex.directory.move.Mover;
import dev.shardex.directory.move.Progress;
import dev.shardex.directory.move.Verifier;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Acceptance (issue 14): a shard is drained online, every user moved off it while 4 writers keep
 * inserting through the driver, then removed from the catalog: no acknowledged insert is lost or
 * doubled, {@code verify} finds no orphan, and the drained shard holds no row of the table.
 */
class DrainUnderLoadTest {
  static final int USERS = 60;
  static final int DRAINED = 2;

  @Test
  void drainingAShardUnderLoadMovesEveryUserAndLosesNoWrite() throws Exception {
    SandboxCluster sandbox = SandboxCluster.shared("drain", 3);
    try (HikariDataSource pool = MoveTestSupport.directoryPool(sandbox, "drain-test", 8)) {
      DirectoryStore store = MoveTestSupport.store(pool);
      String url = MoveTestSupport.freshDirectory(sandbox, store, 3, "drain");
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS dr_rows (id BIGINT PRIMARY KEY, "
            + "user_id BIGINT NOT NULL, KEY (user_id))");
      }
      for (int u = 1; u <= USERS; u++) {
        store.assign(KeySpace.DEFAULT, Long.toString(u), u % 3);
      }
      AtomicLong ids = new AtomicLong();
      try (Connection c = DriverManager.getConnection(url);
          PreparedStatement ps = c.prepareStatement("INSERT INTO dr_rows (id, user_id) VALUES (?, ?)")) {
        for (int u = 1; u <= USERS; u++) {
          for (int r = 0; r < 20; r++) {
            ps.setLong(1, ids.incrementAndGet());
            ps.setLong(2, u);
            ps.addBatch();
          }
        }
        ps.executeBatch();
      }

      MoveTestSupport.InsertWriters writers = new MoveTestSupport.InsertWriters(url, "dr_rows", 4, USERS, ids, 10);
      Thread.sleep(300);
      Mover mover = new Mover(store, MoveTestSupport.connector(sandbox), MoveOptions.defaults(), FaultHook.NONE);
      AtomicLong updates = new AtomicLong();
      Drainer.Result result = new Drainer(store, mover).drain(DRAINED, 3, (done, total, label) -> updates.incrementAndGet());
      Thread.sleep(300);
      writers.stop();
      String report = "drained shard " + DRAINED + ": " + result.moved() + " user(s) moved in " + result.millis() + " ms ("
          + result.millisPerThousand() + " ms per 1,000 users), " + result.failed().size() + " failed, " + result.left()
          + " left; " + writers.acknowledged.size() + " inserts acknowledged meanwhile";
      System.out.println("DRAIN: " + report);
      assertTrue(result.failed().isEmpty() && result.empty(), report);
      assertEquals(USERS / 3, result.moved(), report);
      assertEquals(result.moved(), updates.get(), "one progress update per move: " + report);
      store.removeShard(DRAINED);

      Verifier.Report verified = new Verifier(store, MoveTestSupport.connector(sandbox)).verify(false, Progress.NONE);
      assertTrue(verified.orphans().isEmpty() && verified.unowned().isEmpty(), "verify after the drain: " + verified);
      try (Connection c = sandbox.connectShard(DRAINED); Statement s = c.createStatement();
          var rs = s.executeQuery("SELECT COUNT(*) FROM dr_rows")) {
        rs.next();
        assertEquals(0, rs.getLong(1), "the drained shard holds no row");
      }
      long onShards = 0;
      for (int shard = 0; shard < 2; shard++) {
        try (Connection c = sandbox.connectShard(shard); Statement s = c.createStatement();
            var rs = s.executeQuery("SELECT COUNT(*) FROM dr_rows")) {
          rs.next();
          onShards += rs.getLong(1);
        }
      }
      assertEquals(USERS * 20L + writers.acknowledged.size(), onShards, "every seeded and acknowledged row, once: " + report);
      for (var e : writers.acknowledged.entrySet()) {
        int owner = store.lookup(KeySpace.DEFAULT, Long.toString(e.getValue())).shardId();
        try (Connection c = sandbox.connectShard(owner); Statement s = c.createStatement();
            var rs = s.executeQuery("SELECT COUNT(*) FROM dr_rows WHERE id = " + e.getKey())) {
          rs.next();
          assertEquals(1, rs.getInt(1), "insert " + e.getKey() + " sits once on its owner " + owner);
        }
      }
      assertTrue(writers.acknowledged.size() > 50, "writers kept writing during the drain: " + report);
    }
  }
}
