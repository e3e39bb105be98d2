package dev.shardex.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.testcontainers.DockerClientFactory;

/** Without a Docker engine, the containers backend fails the user's test with a plain message. */
class ContainerBackendTest {
  @Test
  void withoutDockerTheContainersBackendSaysDockerIsMissing() {
    assumeFalse(DockerClientFactory.instance().isDockerAvailable(), "Docker is reachable here: the containers backend runs");
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
        .selectors(DiscoverySelectors.selectClass(ContainerBackedExample.class)).build(), listener);
    TestExecutionSummary summary = listener.getSummary();
    assertEquals(1, summary.getTotalFailureCount());
    String message = summary.getFailures().get(0).getException().getMessage();
    assertTrue(message.contains("needs Docker, and no Docker engine is reachable"), message);
    assertTrue(message.contains("backend = SANDBOX"), message);
  }
}
