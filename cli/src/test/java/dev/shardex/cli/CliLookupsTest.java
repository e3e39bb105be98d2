package dev.shardex.cli;

import static dev.shardex.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.cli.CliRunner.Result;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.move.TestCluster;
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
    assertTrue(extra.out().contains("extra entry '99' -> key 2"), extra.toString());
    assertEquals(0, run("lookups", "verify", "cl_pets", "id", "--repair").code());
    assertEquals(0, run("lookups", "verify", "cl_pets", "id").code());
    Result list = run("lookups", "list");
    assertTrue(list.out().contains("cl_pets") && list.out().contains("yes") && list.out().contains("6"), list.toString());
  }
}
