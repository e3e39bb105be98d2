package dev.shardex.micrometer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/observability.md lists every meter this module registers. */
class ObservabilityReadmeTest {
  @Test
  void everyMeterIsListed() throws Exception {
    String readme = Files.readString(Path.of("..", "docs", "observability.md"));
    int start = readme.indexOf("\n## Observability\n");
    assertTrue(start >= 0, "docs/observability.md has an Observability section");
    String section = readme.substring(start);
    List<String> names = new ArrayList<>(MeterNames.ALL);
    names.addAll(MeterNames.POOL);
    for (String name : names) {
      assertTrue(section.contains("`" + name + "`"), "Observability lacks the meter " + name);
    }
  }

  /** Every metric the Grafana dashboard queries is one this module registers (under Prometheus's names). */
  @Test
  void theDashboardQueriesOnlyRegisteredMeters() throws Exception {
    String dashboard = Files.readString(Path.of("..", "docs", "grafana-shardex.json"));
    List<String> known = new ArrayList<>();
    for (String name : MeterNames.ALL) {
      known.add(name.replace('.', '_'));
    }
    for (String name : MeterNames.POOL) {
      known.add(name.replace('.', '_'));
    }
    var m = java.util.regex.Pattern.compile("\\b((?:shardex|cache|hikaricp)_[a-z_]+)").matcher(dashboard);
    int found = 0;
    while (m.find()) {
      String metric = m.group(1).replaceAll("(_seconds)?(_count|_sum|_total|_max)?$", "").replaceAll("_seconds$", "");
      assertTrue(known.contains(metric), "the dashboard queries " + m.group(1) + ", which no meter gives");
      found++;
    }
    assertTrue(found > 10, "the dashboard's queries were read: " + found);
  }
}
