package dev.shardex.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.catalog.Shard;
import dev.shardex.driver.events.ClusterView;
import dev.shardex.driver.events.ShardexListener;
import dev.shardex.driver.events.ShardexTelemetry;
import dev.shardex.driver.events.StatementView;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Spans and the duration histogram of real statements on a 4-shard sandbox, read from the SDK's in-memory exporters. */
class ShardexTracingTest {
  private static final String URL = "jdbc:shardex:sandbox:otel?shards=4&shardex.instance=ot";
  private static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();
  private static final InMemoryMetricReader METRICS = InMemoryMetricReader.create();
  /** The trace id current on each thread that started a shard call (fan-out threads included). */
  private static final Set<String> CURRENT_ON_SHARD_CALLS = ConcurrentHashMap.newKeySet();
  private static final List<AutoCloseable> INSTALLED = new java.util.ArrayList<>();
  private static Map<Integer, Long> keys;

  @BeforeAll
  static void install() throws Exception {
    OpenTelemetrySdk otel = OpenTelemetrySdk.builder()
        .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(SPANS)).build())
        .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(METRICS).build()).build();
    INSTALLED.add(ShardexTracing.install(otel));
    INSTALLED.add(ShardexTelemetry.register(new ShardexListener() {
      @Override
      public Object shardCallStarted(ClusterView cluster, StatementView statement, Object started, Shard shard) {
        CURRENT_ON_SHARD_CALLS.add(Span.current().getSpanContext().getTraceId());
        return null;
      }
    }));
    try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS ot_rows (user_id BIGINT PRIMARY KEY, v INT)");
      keys = new HashMap<>();
      for (long u = 1; keys.size() < 4 && u < 200; u++) {
        s.executeUpdate("REPLACE INTO ot_rows (user_id, v) VALUES (" + u + ", 1)");
        try (ResultSet rs = s.executeQuery("EXPLAIN ROUTE SELECT v FROM ot_rows WHERE user_id = " + u)) {
          rs.next();
          keys.putIfAbsent(rs.getInt(1), u);
        }
      }
    }
  }

  @AfterAll
  static void uninstall() throws Exception {
    for (AutoCloseable a : INSTALLED) {
      a.close();
    }
  }

  @BeforeEach
  void reset() {
    SPANS.reset();
    CURRENT_ON_SHARD_CALLS.clear();
  }

  /** Every attribute a test's spans carry is one SemanticAttributes lists (and so docs/observability.md). */
  @AfterEach
  void everyAttributeIsAListedOne() {
    for (SpanData span : SPANS.getFinishedSpanItems()) {
      span.getAttributes().forEach((key, value) -> assertTrue(SemanticAttributes.ALL.contains(key),
          span.getName() + " carries " + key.getKey() + ", which SemanticAttributes lacks"));
    }
  }

  private static SpanData statement(String name) {
    List<SpanData> found = SPANS.getFinishedSpanItems().stream().filter(s -> s.getName().equals(name)).toList();
    assertEquals(1, found.size(), name + " in " + SPANS.getFinishedSpanItems());
    return found.get(0);
  }

  private static List<SpanData> children(SpanData parent) {
    return SPANS.getFinishedSpanItems().stream()
        .filter(s -> s.getParentSpanId().equals(parent.getSpanId()) && s.getTraceId().equals(parent.getTraceId())).toList();
  }

  private static String attribute(SpanData span, io.opentelemetry.api.common.AttributeKey<String> key) {
    return span.getAttributes().get(key);
  }

  @Test
  void aOneShardStatementIsOneClientSpanWithOneShardSpan() throws Exception {
    try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT v FROM ot_rows WHERE user_id = " + keys.get(1) + " AND v > 'x'")) {
      assertTrue(rs.next(), "the row of the key");
    }
    SpanData span = statement("SELECT ot_rows");
    assertEquals(SpanKind.CLIENT, span.getKind());
    assertEquals("mariadb", attribute(span, SemanticAttributes.DB_SYSTEM_NAME));
    assertEquals("SELECT", attribute(span, SemanticAttributes.DB_OPERATION_NAME));
    assertEquals("ot_rows", attribute(span, SemanticAttributes.DB_COLLECTION_NAME));
    assertEquals("SELECT ot_rows", attribute(span, SemanticAttributes.DB_QUERY_SUMMARY));
    assertEquals("SELECT v FROM ot_rows WHERE user_id = ? AND v > ?", attribute(span, SemanticAttributes.DB_QUERY_TEXT),
        "literals never reach a span");
    assertEquals("one_shard", attribute(span, SemanticAttributes.ROUTE));
    List<SpanData> shards = children(span);
    assertEquals(1, shards.size());
    assertEquals(SpanKind.INTERNAL, shards.get(0).getKind());
    assertEquals(1L, shards.get(0).getAttributes().get(SemanticAttributes.SHARD_ID));
    assertTrue(attribute(shards.get(0), SemanticAttributes.SERVER_ADDRESS).matches("localhost|127\\.0\\.0\\.1"),
        attribute(shards.get(0), SemanticAttributes.SERVER_ADDRESS));
    assertTrue(shards.get(0).getAttributes().get(SemanticAttributes.SERVER_PORT) > 0);
  }

  @Test
  void aScatterHasOneShardSpanPerShardAndTheFanOutThreadsSeeTheStatementAsCurrent() throws Exception {
    try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT v FROM ot_rows WHERE v >= 0")) {
      while (rs.next()) {
        // read every row: the shard spans end when their connections go back
      }
    }
    SpanData span = statement("SELECT ot_rows");
    assertEquals("all", attribute(span, SemanticAttributes.ROUTE));
    List<SpanData> shards = children(span);
    assertEquals(Set.of(0L, 1L, 2L, 3L),
        shards.stream().map(d -> d.getAttributes().get(SemanticAttributes.SHARD_ID)).collect(java.util.stream.Collectors.toSet()));
    assertEquals(Set.of(span.getTraceId()), CURRENT_ON_SHARD_CALLS, "every shard call, on whichever thread, ran in the statement's trace");
  }

  @Test
  void aRefusalAndAShardErrorAreErrorSpans() throws Exception {
    try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
      assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE ot_rows SET v = 2"));
      assertThrows(SQLException.class, () -> s.executeQuery("SELECT nope FROM ot_rows WHERE user_id = " + keys.get(0)));
    }
    SpanData refused = statement("UPDATE ot_rows");
    assertEquals(StatusCode.ERROR, refused.getStatus().getStatusCode());
    assertEquals("SHX1201", attribute(refused, SemanticAttributes.ERROR_TYPE));
    assertNull(attribute(refused, SemanticAttributes.DB_RESPONSE_STATUS_CODE), "no server answered");
    assertTrue(children(refused).isEmpty(), "refused before any shard ran it");
    SpanData failed = statement("SELECT ot_rows");
    assertEquals(StatusCode.ERROR, failed.getStatus().getStatusCode());
    assertEquals("1054", attribute(failed, SemanticAttributes.DB_RESPONSE_STATUS_CODE));
    assertEquals("1054", attribute(children(failed).get(0), SemanticAttributes.ERROR_TYPE));
  }

  @Test
  void aCrossShardCommitIsACommitSpanAndEveryStatementIsInTheHistogram() throws Exception {
    try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.executeUpdate("UPDATE ot_rows SET v = v + 1 WHERE user_id = " + keys.get(2));
      s.executeUpdate("UPDATE ot_rows SET v = v + 1 WHERE user_id = " + keys.get(3));
      c.commit();
    }
    SpanData commit = statement("COMMIT");
    assertEquals("atomic", attribute(commit, SemanticAttributes.TRANSACTION_MODE));
    assertEquals("committed", attribute(commit, SemanticAttributes.TRANSACTION_OUTCOME));
    assertEquals(2L, commit.getAttributes().get(SemanticAttributes.SHARD_COUNT));
    var histogram = METRICS.collectAllMetrics().stream()
        .filter(m -> m.getName().equals(SemanticAttributes.OPERATION_DURATION)).findFirst().orElseThrow();
    assertEquals("s", histogram.getUnit());
    long updates = histogram.getHistogramData().getPoints().stream()
        .filter(p -> "UPDATE".equals(p.getAttributes().get(SemanticAttributes.DB_OPERATION_NAME))
            && "one_shard".equals(p.getAttributes().get(SemanticAttributes.ROUTE)))
        .mapToLong(p -> p.getCount()).sum();
    assertTrue(updates >= 2, "the two UPDATEs: " + updates);
  }

  @Test
  void aStoppedShardIsAnErrorSpanWithItsShxId() throws Exception {
    var sandbox = dev.shardex.sandbox.SandboxCluster.shared("otel", 4);
    try (Connection c = DriverManager.getConnection(URL + "fail&shardex.connectTimeoutMs=1000");
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT v FROM ot_rows WHERE user_id = " + keys.get(3))) {
        assertTrue(rs.next(), "the shard's pool has a connection before the shard stops");
      }
      SPANS.reset();
      sandbox.stopShard(3);
      try {
        SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT v FROM ot_rows WHERE user_id = " + keys.get(3)));
        assertTrue(e.getMessage().contains("SHX1401"), e.getMessage());
      } finally {
        sandbox.startShard(3);
      }
    }
    SpanData failed = statement("SELECT ot_rows");
    assertEquals(StatusCode.ERROR, failed.getStatus().getStatusCode());
    assertEquals("SHX1401", attribute(failed, SemanticAttributes.ERROR_TYPE));
    assertEquals("one_shard", attribute(failed, SemanticAttributes.ROUTE));
    assertNull(attribute(failed, SemanticAttributes.DB_RESPONSE_STATUS_CODE), "no server answered");
    for (SpanData shard : children(failed)) {
      assertEquals(3L, shard.getAttributes().get(SemanticAttributes.SHARD_ID));
      assertEquals("SHX1401", attribute(shard, SemanticAttributes.ERROR_TYPE));
    }
  }
}
