package dev.shardex.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.common.AttributeKey;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/observability.md lists every span attribute and the histogram. */
class ObservabilityReadmeTest {
  @Test
  void everyAttributeIsListed() throws Exception {
    String readme = Files.readString(Path.of("..", "docs", "observability.md"));
    int start = readme.indexOf("\n## Observability\n");
    assertTrue(start >= 0, "docs/observability.md has an Observability section");
    String section = readme.substring(start);
    for (AttributeKey<?> key : SemanticAttributes.ALL) {
      assertTrue(section.contains("`" + key.getKey() + "`"), "Observability lacks the attribute " + key.getKey());
    }
    assertTrue(section.contains("`" + SemanticAttributes.OPERATION_DURATION + "`"));
  }
}
