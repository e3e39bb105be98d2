package dev.shardex.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shardex.micrometer.ShardexMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Spring Boot picks up shardex-micrometer and shardex-opentelemetry when they and the registries are there. */
class ShardexObservabilityAutoConfigurationTest {
  private static final String URL = "jdbc:shardex:sandbox:springobs?shards=2&shardex.instance=springobs";
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ShardexObservabilityAutoConfiguration.class));

  private static void countRows() throws Exception {
    try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS sb_rows (user_id BIGINT PRIMARY KEY)");
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sb_rows")) {
        assertThat(rs.next()).isTrue();
      }
    }
  }

  @Test
  void aMeterRegistryBeanGetsShardexMeters() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    runner.withBean(MeterRegistry.class, () -> registry).run(context -> {
      countRows();
      assertThat(registry.find("shardex.statements").tag("operation", "select").tag("route", "merged").timer())
          .isNotNull();
    });
    assertThat(registry.find("shardex.statements").meter()).as("removed when the context closes").isNull();
  }

  @Test
  void anOpenTelemetryBeanGetsShardexSpans() {
    InMemorySpanExporter spans = InMemorySpanExporter.create();
    OpenTelemetrySdk otel = OpenTelemetrySdk.builder()
        .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build();
    runner.withBean(OpenTelemetry.class, () -> otel).run(context -> {
      countRows();
      assertThat(spans.getFinishedSpanItems()).anyMatch(s -> s.getName().equals("SELECT sb_rows"));
    });
  }

  @Test
  void withoutTheModuleOrTheBeanNothingIsInstalled() {
    runner.withClassLoader(new FilteredClassLoader(ShardexMetrics.class)).withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .run(context -> assertThat(context).doesNotHaveBean("shardexMetrics"));
    runner.run(context -> assertThat(context.getBean("shardexMetrics", ShardexObservabilityAutoConfiguration.Registration.class)
        .active()).isFalse());
  }

  @Test
  void bootFindsTheAutoConfiguration() throws Exception {
    try (InputStream in = getClass().getResourceAsStream(
        "/META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .contains(ShardexObservabilityAutoConfiguration.class.getName());
    }
  }
}
