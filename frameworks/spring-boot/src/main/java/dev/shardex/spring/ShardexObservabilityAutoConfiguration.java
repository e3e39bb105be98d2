package dev.shardex.spring;

import dev.shardex.micrometer.ShardexMetrics;
import dev.shardex.opentelemetry.ShardexTracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Installs shardex-micrometer on the application's {@link MeterRegistry} and shardex-opentelemetry
 * on its {@link OpenTelemetry}, each when its module and the bean are there. The registries are
 * looked up when the registration beans are made, not when conditions are read, so the order of
 * auto-configurations does not matter. Shard pools opened before (a Flyway migration at start)
 * report their HikariCP figures only from their next start; every other meter and span starts
 * with the registration.
 */
@AutoConfiguration
public class ShardexObservabilityAutoConfiguration {
  /** What was installed; undone when the context closes. */
  public static final class Registration implements DisposableBean {
    private final AutoCloseable installed;

    Registration(AutoCloseable installed) {
      this.installed = installed;
    }

    public boolean active() {
      return installed != null;
    }

    @Override
    public void destroy() throws Exception {
      if (installed != null) {
        installed.close();
      }
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"dev.shardex.micrometer.ShardexMetrics", "io.micrometer.core.instrument.MeterRegistry"})
  static class Metrics {
    @Bean
    Registration shardexMetrics(ObjectProvider<MeterRegistry> registry) {
      MeterRegistry r = registry.getIfUnique();
      return new Registration(r == null ? null : ShardexMetrics.install(r));
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"dev.shardex.opentelemetry.ShardexTracing", "io.opentelemetry.api.OpenTelemetry"})
  static class Tracing {
    @Bean
    Registration shardexTracing(ObjectProvider<OpenTelemetry> otel) {
      OpenTelemetry o = otel.getIfUnique();
      return new Registration(o == null ? null : ShardexTracing.install(o));
    }
  }
}
