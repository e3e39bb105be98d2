package dev.shardex.cli;

import static dev.shardex.cli.CliRunner.run;
import static dev.shardex.cli.CliRunner.runWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.cli.CliRunner.Result;
import dev.shardex.directory.move.TestCluster;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The catalog commands, help, usage errors and connection handling, run in-process. */
class CliCatalogTest {
  @BeforeEach
  void setUp() throws SQLException {
    TestCluster.fresh();
  }

  @Test
  void help_isEverywhere() {
    for (String[] args : new String[][] {{"--help"}, {"shards", "--help"}, {"users", "move", "--help"}, {"moves", "resume", "--help"},
        {"rebalance", "apply", "--help"}, {"verify", "--help"}, {"sandbox", "--help"}}) {
      Result r = runWith(Map.of(), args);
      assertEquals(0, r.code(), r.toString());
      assertTrue(r.out().contains("Usage: shardex"), r.toString());
    }
  }

  /** A command list shows each command's first description line only: it must be a whole sentence. */
  @Test
  void help_summariesAreWholeSentences() {
    java.util.ArrayDeque<picocli.CommandLine> todo = new java.util.ArrayDeque<>(
        java.util.List.of(new picocli.CommandLine(new ShardexCli(Map.of()))));
    java.util.List<String> cut = new java.util.ArrayList<>();
    while (!todo.isEmpty()) {
      picocli.CommandLine c = todo.pop();
      String[] description = c.getCommandSpec().usageMessage().description();
      if (description.length > 0 && !description[0].matches(".*[.)]$")) {
        cut.add(c.getCommandSpec().qualifiedName() + ": " + description[0]);
      }
      todo.addAll(c.getSubcommands().values());
    }
    assertTrue(cut.isEmpty(), "summaries cut mid-sentence in 'shardex --help':\n" + String.join("\n", cut));
  }

  @Test
  void usageErrors_exit1() {
    Result none = runWith(Map.of(), "shards", "list");
    assertEquals(1, none.code(), none.toString());
    assertTrue(none.err().contains("SHARDEX_URL"), none.toString());
    assertEquals(1, run("shards", "list", "--bogus").code());
    assertEquals(1, run("tables", "add", "t", "--key", "k", "--global").code());
    Result secret = run("shards", "add", "9", "jdbc:mysql://h:3306/db?password=hunter2");
    assertEquals(1, secret.code(), secret.toString());
    assertFalse(secret.err().contains("hunter2"), secret.toString());
    assertEquals(1, run("shards").code(), "a group without its subcommand shows its usage");
  }

  @Test
  void unreachableDirectory_exits3_andNeverPrintsThePassword() {
    Result r = runWith(Map.of(), "--url", "jdbc:mysql://127.0.0.1:1/dir?connectTimeout=500", "--user", "u", "--password=hunter2",
        "shards", "list");
    assertEquals(3, r.code(), r.toString());
    assertTrue(r.err().contains("SHX1406"), r.toString());
    assertFalse((r.out() + r.err()).contains("hunter2"), r.toString());
  }

  @Test
  void shards_listSetStatusRemove() {
    Result list = run("shards", "list");
    assertEquals(0, list.code(), list.toString());
    assertTrue(list.out().startsWith("ID  STATUS  WEIGHT  KEYS  URL"), list.toString());
    assertEquals(4, list.out().lines().count(), list.toString());

    assertEquals(0, run("shards", "set-status", "2", "READ_ONLY").code());
    Result json = run("--json", "shards", "list");
    assertTrue(json.out().contains("{\"id\":2,\"url\":\"" + TestCluster.sandbox().shardUrl(2) + "\",\"status\":\"READ_ONLY\",\"weight\":1,\"keys\":0}"),
        json.toString());
    assertEquals(1, run("shards", "set-status", "2", "SLEEPY").code());
    assertEquals(2, run("shards", "set-status", "7", "ONLINE").code(), "unknown shard is refused");

    Result added = run("shards", "add", "5", TestCluster.sandbox().shardUrl(2), "--weight", "2");
    assertEquals(0, added.code(), added.toString());
    assertTrue(added.out().contains("reachable"), added.toString());
    assertEquals(0, run("shards", "remove", "5").code());
  }

  @Test
  void shards_removeIsRefusedWhileTheShardHoldsKeys() throws SQLException {
    TestCluster.fresh().assign("default", "42", 1);
    Result r = run("shards", "remove", "1");
    assertEquals(2, r.code(), r.toString());
    assertTrue(r.err().contains("SHX1606") && r.err().contains("1 key(s)"), r.toString());
  }

  @Test
  void keyspacesAndTables() {
    assertEquals(0, run("init").code());
    assertEquals(0, run("keyspaces", "add", "devices", "--type", "STRING").code());
    Result spaces = run("keyspaces", "list");
    assertTrue(spaces.out().contains("devices  STRING    least_loaded"), spaces.toString());

    assertEquals(0, run("tables", "add", "posts", "--key", "author_id").code());
    assertEquals(0, run("tables", "add", "readings", "--key", "device_id", "--keyspace", "devices").code());
    assertEquals(0, run("tables", "add", "countries", "--global").code());
    assertEquals(0, run("tables", "add", "jobs", "--single", "--shard", "1").code());
    Result bad = run("tables", "add", "x", "--key", "k", "--keyspace", "nope");
    assertEquals(2, bad.code(), bad.toString());
    assertTrue(bad.err().contains("SHX1103"), bad.toString());

    Result tables = run("tables", "list");
    assertEquals("""
        TABLE      KIND     KEYSPACE  KEY        HOME
        countries  GLOBAL   -         -          -
        jobs       SINGLE   -         -          1
        posts      SHARDED  default   author_id  -
        readings   SHARDED  devices   device_id  -
        """, tables.out());
    Result json = run("tables", "list", "--json");
    assertTrue(json.out().contains("{\"name\":\"posts\",\"kind\":\"SHARDED\",\"keyspace\":\"default\",\"key\":\"author_id\",\"homeShard\":null}"),
        json.toString());
  }

  @Test
  void driverAndSandboxUrls_areAccepted() {
    String dir = TestCluster.sandbox().directoryUrl();
    Result driverStyle = runWith(Map.of("SHARDEX_PASSWORD", TestCluster.sandbox().password()), "--url",
        "jdbc:shardex:" + dir.substring(5) + "?user=shardex&shardex.pollMs=50", "shards", "list");
    assertEquals(0, driverStyle.code(), driverStyle.toString());
    Result sandbox = runWith(Map.of(), "--url", "jdbc:shardex:sandbox:clitest?shards=3", "keyspaces", "list");
    assertEquals(0, sandbox.code(), sandbox.toString());
    assertTrue(sandbox.out().contains("default"), sandbox.toString());
  }

  @Test
  void sandbox_printsItsUrlWithoutThePassword() {
    Result r = runWith(Map.of(), "sandbox", "--shards", "3", "--name", "clitest", "--no-wait");
    assertEquals(0, r.code(), r.toString());
    assertTrue(r.out().contains("jdbc:shardex:mysql://127.0.0.1:"), r.toString());
    assertFalse(r.out().contains(TestCluster.sandbox().password()), r.toString());
  }
}
