package dev.shardex.opentelemetry;

import static dev.shardex.opentelemetry.SemanticAttributes.CLUSTER;
import static dev.shardex.opentelemetry.SemanticAttributes.DB_COLLECTION_NAME;
import static dev.shardex.opentelemetry.SemanticAttributes.DB_OPERATION_NAME;
import static dev.shardex.opentelemetry.SemanticAttributes.DB_QUERY_SUMMARY;
import static dev.shardex.opentelemetry.SemanticAttributes.DB_QUERY_TEXT;
import static dev.shardex.opentelemetry.SemanticAttributes.DB_SYSTEM_NAME;
import static dev.shardex.opentelemetry.SemanticAttributes.ROUTE;
import static dev.shardex.opentelemetry.SemanticAttributes.SHARD_COUNT;
import static dev.shardex.opentelemetry.SemanticAttributes.SHARD_ID;

import dev.shardex.directory.catalog.Shard;
import dev.shardex.driver.events.ClusterView;
import dev.shardex.driver.events.ShardexListener;
import dev.shardex.driver.events.ShardexTelemetry;
import dev.shardex.driver.events.StatementOutcome;
import dev.shardex.driver.events.StatementView;
import dev.shardex.driver.events.TransactionOutcome;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Shardex as OpenTelemetry traces and the {@code db.client.operation.duration} histogram.
 *
 * <pre>
 * AutoCloseable tracing = ShardexTracing.install(openTelemetry); // Spring Boot: done for you
 * </pre>
 *
 * <p>One CLIENT span per logical statement, named by its {@code db.query.summary}, with the stable
 * database attributes and the sanitised text; under it one INTERNAL span per shard call with
 * {@code server.address}. The statement's span is the current context while it runs, and the
 * fan-out executor carries it into its threads, so instrumentation under Shardex (a Connector/J
 * agent span) nests under it too. Shard spans are INTERNAL so that an agent's suppression of
 * nested CLIENT spans keeps them. Nothing here runs unless this listener is installed.
 */
public final class ShardexTracing implements ShardexListener {
  private final Tracer tracer;
  private final DoubleHistogram duration;
  private final Map<Executor, Executor> wrapped = new ConcurrentHashMap<>();

  public ShardexTracing(OpenTelemetry otel) {
    this.tracer = otel.getTracer("dev.shardex");
    this.duration = otel.getMeter("dev.shardex").histogramBuilder(SemanticAttributes.OPERATION_DURATION)
        .setUnit("s").setDescription("Duration of database client operations (Shardex's logical statements).")
        .setExplicitBucketBoundariesAdvice(SemanticAttributes.DURATION_BUCKETS).build();
  }

  /** Traces every Shardex cluster of this JVM; close the result to stop. */
  public static AutoCloseable install(OpenTelemetry otel) {
    return ShardexTelemetry.register(new ShardexTracing(otel));
  }

  /** A statement's span, the scope that makes it current, and the context its shard spans and metric point hang on. */
  private record Running(Span span, Scope scope, Context context) {}

  @Override
  @SuppressWarnings("MustBeClosedChecker") // the scope is closed by statementEnded, the listener's other half
  public Object statementStarted(StatementView s) {
    Span span = tracer.spanBuilder(s.summary()).setSpanKind(SpanKind.CLIENT)
        .setAttribute(DB_OPERATION_NAME, s.operation()).setAttribute(DB_QUERY_SUMMARY, s.summary())
        .setAttribute(CLUSTER, s.cluster().name()).startSpan();
    if (s.tableCount() == 1) {
      span.setAttribute(DB_COLLECTION_NAME, s.table());
    }
    if (span.isRecording() && s.queryText() != null) {
      span.setAttribute(DB_QUERY_TEXT, s.queryText());
    }
    Context context = Context.current().with(span);
    return new Running(span, context.makeCurrent(), context);
  }

  @Override
  public void statementEnded(StatementView s, Object started) {
    if (!(started instanceof Running r)) {
      return;
    }
    r.scope().close();
    Span span = r.span();
    AttributesBuilder metric = Attributes.builder().put(DB_SYSTEM_NAME, s.cluster().dbSystem())
        .put(DB_OPERATION_NAME, s.operation()).put(DB_QUERY_SUMMARY, s.summary()).put(ROUTE, s.route().tag());
    if (s.tableCount() == 1) {
      metric.put(DB_COLLECTION_NAME, s.table());
    }
    span.setAttribute(DB_SYSTEM_NAME, s.cluster().dbSystem()).setAttribute(ROUTE, s.route().tag())
        .setAttribute(SHARD_COUNT, s.shardCalls());
    if (s.outcome() != StatementOutcome.OK) {
      Errors.mark(span, s.errorType(), s.outcome() == StatementOutcome.ERROR, s.error());
      metric.put(SemanticAttributes.ERROR_TYPE, s.errorType());
    }
    span.end();
    duration.record(s.elapsedNanos() / 1e9, metric.build(), r.context());
  }

  @Override
  public Object shardCallStarted(ClusterView cluster, StatementView statement, Object started, Shard shard) {
    Context parent = started instanceof Running r ? r.context() : Context.current();
    var span = tracer.spanBuilder("shardex.shard " + shard.id()).setParent(parent).setSpanKind(SpanKind.INTERNAL)
        .setAttribute(SHARD_ID, shard.id()).setAttribute(CLUSTER, cluster.name());
    Errors.server(span, cluster.serverAddress(shard.id()));
    return span.startSpan();
  }

  @Override
  public void shardCallFailed(ClusterView cluster, Object call, Shard shard, SQLException error) {
    if (call instanceof Span span) {
      Errors.mark(span, dev.shardex.driver.events.ErrorTypes.of(error), true, error);
    }
  }

  @Override
  public void shardCallEnded(ClusterView cluster, Object call, Shard shard, long nanos) {
    if (call instanceof Span span) {
      span.end();
    }
  }

  /** A call's span reads its own clock: the driver need not time calls for it. */
  @Override
  public boolean timesShardCalls() {
    return false;
  }

  @Override
  public void transactionEnded(ClusterView cluster, String mode, int shards, TransactionOutcome outcome,
      SQLException error, long nanos) {
    long now = System.currentTimeMillis() * 1_000_000;
    Span span = tracer.spanBuilder(outcome == TransactionOutcome.ROLLED_BACK ? "ROLLBACK" : "COMMIT")
        .setSpanKind(SpanKind.CLIENT).setStartTimestamp(now - nanos, TimeUnit.NANOSECONDS)
        .setAttribute(DB_SYSTEM_NAME, cluster.dbSystem()).setAttribute(CLUSTER, cluster.name())
        .setAttribute(SemanticAttributes.TRANSACTION_MODE, mode).setAttribute(SHARD_COUNT, shards)
        .setAttribute(SemanticAttributes.TRANSACTION_OUTCOME, outcome.tag()).startSpan();
    if (error != null) {
      Errors.mark(span, dev.shardex.driver.events.ErrorTypes.of(error), true, error);
    }
    span.end(now, TimeUnit.NANOSECONDS);
  }

  @Override
  public Executor fanout(Executor pool) {
    Executor w = wrapped.get(pool);
    return w != null ? w : wrapped.computeIfAbsent(pool, Context::taskWrapping);
  }
}
