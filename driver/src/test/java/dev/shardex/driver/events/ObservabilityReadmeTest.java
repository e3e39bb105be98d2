package dev.shardex.driver.events;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.jmx.ShardexClusterMXBean;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/observability.md names every bean attribute, route, outcome and transaction outcome. */
class ObservabilityReadmeTest {
  static String section() throws Exception {
    String readme = Files.readString(Path.of("..", "docs", "observability.md"));
    int start = readme.indexOf("\n## Observability\n");
    assertTrue(start >= 0, "docs/observability.md has an Observability section");
    int end = readme.indexOf("\n## ", start + 5);
    return readme.substring(start, end < 0 ? readme.length() : end);
  }

  @Test
  void everyBeanAttributeRouteAndOutcomeIsListed() throws Exception {
    String section = section();
    for (Method m : ShardexClusterMXBean.class.getMethods()) {
      String attribute = m.getName().substring(3);
      assertTrue(section.contains("`" + attribute + "`"), "Observability lacks the bean attribute " + attribute);
    }
    for (RouteKind r : RouteKind.values()) {
      assertTrue(section.contains("`" + r.tag() + "`"), "Observability lacks the route " + r.tag());
    }
    for (StatementOutcome o : StatementOutcome.values()) {
      assertTrue(section.contains("`" + o.tag() + "`"), "Observability lacks the outcome " + o.tag());
    }
  }
}
