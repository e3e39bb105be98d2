package dev.shardex.spring;

import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Spring Boot picks a DataSource's driver class from the URL's prefix, from a list of databases it knows;
 * for {@code jdbc:shardex:} it finds none and the context fails with "Failed to determine a suitable driver
 * class". With this module on the classpath, {@code spring.datasource.url=jdbc:shardex:...} alone is enough:
 * it names Shardex's driver class, as the lowest-precedence property, so a
 * {@code spring.datasource.driver-class-name} the application sets still wins.
 *
 * <p>It runs last among the environment post-processors, after Boot has read application.properties and
 * the profiles, so it sees the URL wherever it was set (file, environment variable, command line).
 */
public final class ShardexEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {
  static final String URL = "spring.datasource.url";
  static final String DRIVER = "spring.datasource.driver-class-name";
  static final String SHARDEX_DRIVER = "dev.shardex.driver.ShardexDriver";

  @Override
  public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
    String url = environment.getProperty(URL);
    if (url != null && url.startsWith("jdbc:shardex:") && !environment.containsProperty(DRIVER)) {
      environment.getPropertySources().addLast(new MapPropertySource("shardex", Map.of(DRIVER, SHARDEX_DRIVER)));
    }
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }
}
