package dev.shardex.cli;

import static dev.shardex.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.cli.CliRunner.Result;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.move.TestCluster;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code shardex lookups add / build / verify / list} on a table that has rows on its shards. */
class CliLookupsTest {
  @Test
  void addBuildVerifyList() throws Exception {
    DirectoryStore store = TestCluster.fresh();
    assertEquals(0, run("tables", "add", "cl_pets", "--key", "owner_id").code());
    TestCluster.onAllShards("CREATE TABLE cl_pets (id INT PRIMARY KEY, owner_id INT NOT NULL)");
    for (int owner = 1; owner <= 3; owner++) {
      store.assign("default", Integer.toString(owner), owner - 1);
      TestCluster.onShard(owner - 1, "INSERT INTO cl_pets VALUES (" + (10 * owner) + ", " + owner + "), (" + (10 * owner + 1)
          + ", " + owner + ")");
    }
    assertEquals(1, run("lookups", "add", "nope", "id").code(), "an undeclared table is a usage error");
    Result added = run("lookups", "add", "cl_pets", "id", "--unique");
    assertEquals(0, added.code(), added.toString());
    Result built = run("lookups", "build", "cl_pets", "id");
    assertEquals(0, built.code(), built.toString());
    assertTrue(built.out().contains("Read 6 rows, added 6 entries"), built.toString());
    TestCluster.directory("INSERT INTO lookup_unique (index_id, v, k) SELECT id, '99', '2' FROM lookup_indexes WHERE table_name = 'cl_pets'");
    Result extra = run("lookups", "verify", "cl_pets", "id");
    assertEquals(2, extra.code(), extra.toString());
    assertTrue(extra.out().contains("extra entry '99' -> key 2: no row with the value under this key"), extra.toString());
    assertEquals(0, run("lookups", "verify", "cl_pets", "id", "--repair").code());
    assertEquals(0, run("lookups", "verify", "cl_pets", "id").code());
    Result list = run("lookups", "list");
    assertTrue(list.out().contains("cl_pets") && list.out().contains("yes") && list.out().contains("6"), list.toString());
  }

  /**
   * Entries broken by hand: one deleted (its row is missing its entry: a read by id finds
   * nothing), one re-pointed to a key without the row (an extra entry and a missing one), and a
   * row copied by hand under a second owner (a duplicate of a unique value). {@code lookups verify}
   * lists each, {@code shardex verify} counts them, {@code --repair} re-adds and re-points what it
   * can and leaves the duplicate (exit code 2) until the row is gone.
   */
  @Test
  void verify_findsEntriesBrokenByHand_andRepairFixesThem() throws Exception {
    DirectoryStore store = TestCluster.fresh();
    assertEquals(0, run("tables", "add", "cl_broken", "--key", "owner_id").code());
    TestCluster.onAllShards("CREATE TABLE cl_broken (id INT PRIMARY KEY, owner_id INT NOT NULL)");
    for (int owner = 1; owner <= 3; owner++) {
      store.assign("default", Integer.toString(owner), owner - 1);
      TestCluster.onShard(owner - 1, "INSERT INTO cl_broken VALUES (" + (10 * owner) + ", " + owner + "), (" + (10 * owner + 1)
          + ", " + owner + ")");
    }
    assertEquals(0, run("lookups", "add", "cl_broken", "id", "--unique").code());
    assertEquals(0, run("lookups", "build", "cl_broken", "id").code());
    String index = "(SELECT id FROM lookup_indexes WHERE table_name = 'cl_broken')";
    TestCluster.directory("DELETE FROM lookup_unique WHERE index_id = " + index + " AND v = '20'",
        "UPDATE lookup_unique SET k = '3' WHERE index_id = " + index + " AND v = '11'");
    assertEquals(List.of(), readById(20), "a row without its entry is not found by its id");

    Result found = run("lookups", "verify", "cl_broken", "id");
    assertEquals(2, found.code(), found.toString());
    assertTrue(found.out().contains("missing entry '20' -> key 2: no entry\n"), found.toString());
    assertTrue(found.out().contains("missing entry '11' -> key 1: the entry names key 3, which has no such row\n"), found.toString());
    assertTrue(found.out().contains("extra entry '11' -> key 3: no row with the value under this key\n"), found.toString());
    assertTrue(found.out().contains("lookup cl_broken.id: 2 missing, 1 extra, 0 duplicate entries;"
        + " run 'shardex lookups verify cl_broken id --repair'"), found.toString());
    Result whole = run("verify");
    assertEquals(2, whole.code(), whole.toString());
    assertTrue(whole.out().contains("lookup cl_broken.id: 2 missing, 1 extra, 0 duplicate entries"), whole.toString());
    assertTrue(whole.out().contains("1 of 1 lookup(s) with missing, extra or duplicate entries"), whole.toString());

    Result repaired = run("lookups", "verify", "cl_broken", "id", "--repair");
    assertEquals(0, repaired.code(), repaired.toString());
    assertTrue(repaired.out().contains("missing entry '20' -> key 2: no entry: entry added"), repaired.toString());
    assertTrue(repaired.out().contains("missing entry '11' -> key 1: the entry names key 3, which has no such row: re-pointed from key 3"),
        repaired.toString());
    assertTrue(repaired.out().contains("(2 repaired)"), repaired.toString());
    Result clean = run("lookups", "verify", "cl_broken", "id");
    assertEquals(0, clean.code(), clean.toString());
    assertTrue(clean.out().contains("lookup cl_broken.id: 0 missing, 0 extra, 0 duplicate entries: OK"), clean.toString());
    assertEquals(List.of("2"), readById(20));
    assertEquals(List.of("1"), readById(11));

    TestCluster.onShard(0, "INSERT INTO cl_broken VALUES (30, 1)"); // owner 3 has pet 30 on shard 2: written outside Shardex
    Result duplicate = run("lookups", "verify", "cl_broken", "id", "--repair");
    assertEquals(2, duplicate.code(), "a duplicate is left: " + duplicate);
    assertTrue(duplicate.out().contains("duplicate value '30' under key 1: Shardex SHX1608: lookup cl_broken.id is unique but value"
        + " '30' is held by key 3 on shard 2 and key 1 on shard 0"), duplicate.toString());
    assertTrue(duplicate.out().contains("0 missing, 0 extra, 1 duplicate entry (0 repaired); duplicates are left: make the rows unique"),
        duplicate.toString());
    TestCluster.onShard(0, "DELETE FROM cl_broken WHERE id = 30");
    assertEquals(0, run("lookups", "verify", "cl_broken", "id").code());
  }

  /** The owner of the row with this id, read through the driver (routed by the lookup). */
  private static List<String> readById(int id) throws Exception {
    java.util.Properties login = new java.util.Properties();
    login.setProperty("user", TestCluster.sandbox().user());
    login.setProperty("password", TestCluster.sandbox().password());
    String url = "jdbc:shardex:" + TestCluster.sandbox().directoryUrl().substring("jdbc:".length()) + "?shardex.instance=cl-broken";
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, login);
        java.sql.PreparedStatement ps = c.prepareStatement("SELECT owner_id FROM cl_broken WHERE id = ?")) {
      ps.setInt(1, id);
      List<String> owners = new java.util.ArrayList<>();
      try (java.sql.ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          owners.add(rs.getString(1));
        }
      }
      return owners;
    } finally {
      dev.shardex.driver.ShardexDriver.shutdown(); // each read sees the directory as it is now, no cached entry
    }
  }
}
