package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.cluster.ShardexProperty;
import dev.shardex.vocabulary.ShardexError;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's reference tables stay in step with the code they describe. */
class ReadmeTest {
  static String readme() throws Exception {
    return Files.readString(Path.of("..", "README.md"));
  }

  @Test
  void everyOptionIsDocumentedWithItsDefault() throws Exception {
    String readme = readme();
    for (ShardexProperty p : ShardexProperty.values()) {
      String row = "| `" + p.key() + "` | `" + p.defaultValue() + "` | " + p.description() + " |";
      assertTrue(readme.contains(row), "README option table lacks or differs for: " + row);
    }
  }

  @Test
  void everyErrorIsDocumentedWithItsSqlState() throws Exception {
    String readme = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "errors.md"));
    for (ShardexError e : ShardexError.values()) {
      String row = "| " + e.id() + " | `" + e.sqlState() + "` | " + e.name() + " |";
      assertTrue(readme.contains(row), "docs/errors.md error table lacks or differs for: " + row);
    }
  }

  @Test
  void theCiScriptRunsTheReadmeTestCommand() throws Exception {
    assertTrue(readme().contains("```\nmvn -B verify\n```"), "README gives the test command");
    assertTrue(Files.readString(Path.of("..", ".ci", "run")).contains("\nmvn -B verify\n"), ".ci/run runs it");
  }
}
