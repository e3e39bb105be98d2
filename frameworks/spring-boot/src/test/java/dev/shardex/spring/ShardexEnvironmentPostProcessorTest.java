package dev.shardex.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** The driver class is named for jdbc:shardex: URLs only, and never over the application's own choice. */
class ShardexEnvironmentPostProcessorTest {
  private static StandardEnvironment environment(Map<String, Object> properties) {
    StandardEnvironment env = new StandardEnvironment();
    env.getPropertySources().addFirst(new MapPropertySource("application", properties));
    new ShardexEnvironmentPostProcessor().postProcessEnvironment(env, new SpringApplication());
    return env;
  }

  @Test
  void aShardexUrlGetsShardexsDriverClass() {
    var env = environment(Map.of("spring.datasource.url", "jdbc:shardex:sandbox:app?shards=4"));
    assertEquals("dev.shardex.driver.ShardexDriver", env.getProperty("spring.datasource.driver-class-name"));
  }

  @Test
  void otherUrlsAreLeftToBoot() {
    var env = environment(Map.of("spring.datasource.url", "jdbc:mysql://localhost/app"));
    assertNull(env.getProperty("spring.datasource.driver-class-name"));
  }

  @Test
  void theApplicationsOwnDriverClassWins() {
    var env = environment(Map.of("spring.datasource.url", "jdbc:shardex:sandbox:app?shards=4",
        "spring.datasource.driver-class-name", "com.example.WrappingDriver"));
    assertEquals("com.example.WrappingDriver", env.getProperty("spring.datasource.driver-class-name"));
  }
}
