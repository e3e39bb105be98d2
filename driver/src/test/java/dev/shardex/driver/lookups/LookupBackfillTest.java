package dev.shardex.driver.lookups;

import static dev.shardex.driver.lookups.LookupRoutingTest.one;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.Directory;
import dev.shardex.directory.lookup.Lookup;
import dev.shardex.directory.move.LookupBackfill;
import dev.shardex.directory.move.LookupVerifier;
import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A lookup declared on a table that has rows ({@code shardex lookups add} + {@code lookups build}):
 * the backfill adds an entry per row, and a value two owners hold is reported by name, not overwritten.
 */
class LookupBackfillTest {
  @Test
  void build_addsEveryRowsEntry_andReportsAValueTwoOwnersHold() throws Exception {
    TestCluster.run("CREATE TABLE lbf_pets (id INT NOT NULL, owner_id INT NOT NULL, name VARCHAR(20), PRIMARY KEY (owner_id, id))"
        + " COMMENT='shardex:sharded key=owner_id'");
    int other = -1;
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      for (int id = 1; id <= 20; id++) {
        s.executeUpdate("INSERT INTO lbf_pets VALUES (" + id + ", " + (id % 5) + ", 'pet " + id + "')");
      }
      s.executeUpdate("INSERT INTO lbf_pets VALUES (7, 99, 'twin')"); // id 7 under a second owner: not unique
      Directory dir = TestCluster.cluster(c).directory();
      dir.lookups().declare("lbf_pets", "id", true);
      Lookup l = dir.lookups().of("lbf_pets").get(0);
      LookupBackfill.Report report = new LookupBackfill(dir.store(), TestCluster.sandbox()::connectShard).build(l);
      assertEquals(21, report.rows());
      assertEquals(20, report.added());
      assertEquals(1, report.conflicts().size());
      assertTrue(report.conflicts().get(0).contains("SHX1608") && report.conflicts().get(0).contains("value '7'"),
          report.conflicts().get(0));
      assertEquals("pet 13", one(c, "SELECT name FROM lbf_pets WHERE id = 13"));
      assertEquals("21", one(c, "SELECT COUNT(*) FROM lbf_pets"));
    }
  }

  @Test
  void verify_listsAnEntryWhoseRowIsGone_andRepairDeletesIt() throws Exception {
    TestCluster.run("CREATE TABLE lbf_v (id INT PRIMARY KEY, owner_id INT NOT NULL) COMMENT='shardex:sharded key=owner_id lookup=id unique'",
        "INSERT INTO lbf_v VALUES (1, 1), (2, 2)");
    try (Connection c = TestCluster.connect()) {
      Directory dir = TestCluster.cluster(c).directory();
      Lookup l = dir.lookups().of("lbf_v").get(0);
      dir.lookups().store().claim(l, "3", "3"); // as a driver that died before writing its row leaves it
      LookupVerifier verifier = new LookupVerifier(dir.store(), TestCluster.sandbox()::connectShard);
      LookupVerifier.Report found = verifier.check(l, false);
      assertEquals(List.of(new LookupVerifier.Finding(LookupVerifier.Kind.EXTRA, "3", "3", "no row with the value under this key")),
          found.findings());
      assertEquals(List.of(1L, 0L, 0L), List.of(found.extra(), found.missing(), found.duplicate()));
      assertEquals(1, verifier.check(l, true).repaired());
      assertTrue(verifier.check(l, false).clean());
      assertEquals(2L, dir.lookups().store().count(l));
    }
  }
}
