package dev.shardex.opentelemetry;

import io.opentelemetry.api.common.AttributeKey;
import java.util.List;

/**
 * The attributes Shardex sets: the stable database semantic conventions (v1.33 and later) and its
 * own under {@code shardex.*}. Checked against the README by a test.
 */
public final class SemanticAttributes {
  private SemanticAttributes() {}

  public static final AttributeKey<String> DB_SYSTEM_NAME = AttributeKey.stringKey("db.system.name");
  public static final AttributeKey<String> DB_OPERATION_NAME = AttributeKey.stringKey("db.operation.name");
  public static final AttributeKey<String> DB_COLLECTION_NAME = AttributeKey.stringKey("db.collection.name");
  public static final AttributeKey<String> DB_QUERY_SUMMARY = AttributeKey.stringKey("db.query.summary");
  public static final AttributeKey<String> DB_QUERY_TEXT = AttributeKey.stringKey("db.query.text");
  public static final AttributeKey<String> DB_RESPONSE_STATUS_CODE = AttributeKey.stringKey("db.response.status_code");
  public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
  public static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
  public static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
  public static final AttributeKey<String> ROUTE = AttributeKey.stringKey("shardex.route");
  public static final AttributeKey<Long> SHARD_COUNT = AttributeKey.longKey("shardex.shard.count");
  public static final AttributeKey<Long> SHARD_ID = AttributeKey.longKey("shardex.shard.id");
  public static final AttributeKey<String> CLUSTER = AttributeKey.stringKey("shardex.cluster");
  public static final AttributeKey<String> TRANSACTION_MODE = AttributeKey.stringKey("shardex.transaction.mode");
  public static final AttributeKey<String> TRANSACTION_OUTCOME = AttributeKey.stringKey("shardex.transaction.outcome");

  /** The histogram of logical statements, in seconds, as the semantic conventions name it. */
  public static final String OPERATION_DURATION = "db.client.operation.duration";

  /** The semantic conventions' bucket advice for it. */
  public static final List<Double> DURATION_BUCKETS = List.of(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0);

  public static final List<AttributeKey<?>> ALL = List.of(DB_SYSTEM_NAME, DB_OPERATION_NAME, DB_COLLECTION_NAME,
      DB_QUERY_SUMMARY, DB_QUERY_TEXT, DB_RESPONSE_STATUS_CODE, ERROR_TYPE, SERVER_ADDRESS, SERVER_PORT, ROUTE,
      SHARD_COUNT, SHARD_ID, CLUSTER, TRANSACTION_MODE, TRANSACTION_OUTCOME);
}
