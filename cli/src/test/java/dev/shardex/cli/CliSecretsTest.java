package dev.shardex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.cli.CliRunner.Result;
import dev.shardex.directory.move.TestCluster;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The CLI never prints a password: not from a user:password@ URL, a password= option, or a wrong password. */
class CliSecretsTest {
  @Test
  void noPasswordInOutputOrErrors() throws java.sql.SQLException {
    TestCluster.fresh(); // a directory schema, whichever test class runs first
    var sandbox = TestCluster.sandbox();
    String password = sandbox.password();
    String enc = URLEncoder.encode(password, StandardCharsets.UTF_8);
    String hostDb = sandbox.directoryUrl().substring("jdbc:mysql://".length());
    String userInfo = "jdbc:mysql://" + sandbox.user() + ":" + enc + "@" + hostDb;
    Map<String, String> none = Map.of();
    Result[] runs = {
        CliRunner.runWith(none, "--url", userInfo, "shards", "list"),
        CliRunner.runWith(none, "--url", sandbox.directoryUrl() + "?password=" + enc, "--user", sandbox.user(), "tables", "list"),
        CliRunner.runWith(none, "--url", userInfo + "x", "shards", "list"),
        CliRunner.runWith(none, "--url", sandbox.directoryUrl(), "--user", sandbox.user(), "--password", password + "x", "shards", "list")};
    assertEquals(0, runs[0].code(), runs[0].toString());
    assertEquals(0, runs[1].code(), runs[1].toString());
    assertTrue(runs[2].code() != 0 && runs[3].code() != 0, "wrong databases and passwords fail: " + runs[2] + runs[3]);
    for (Result r : runs) {
      assertFalse(r.out().contains(password) || r.err().contains(password), "a password was printed: " + r);
    }
  }
}
