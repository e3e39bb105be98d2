package dev.shardex.opentelemetry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.StatusCode;
import java.sql.SQLException;

/** How errors and servers go on spans, by the semantic conventions. */
final class Errors {
  private Errors() {}

  /**
   * Status ERROR and {@code error.type}; a server's error (a vendor code) also gives
   * {@code db.response.status_code}. A refusal got no response: no status code, no exception event.
   */
  static void mark(Span span, String type, boolean failure, SQLException error) {
    span.setStatus(StatusCode.ERROR, type);
    span.setAttribute(SemanticAttributes.ERROR_TYPE, type);
    if (failure && !type.isEmpty() && Character.isDigit(type.charAt(0))) {
      span.setAttribute(SemanticAttributes.DB_RESPONSE_STATUS_CODE, type);
    }
    if (failure && error != null) {
      span.recordException(error);
    }
  }

  /** {@code server.address} and {@code server.port} from {@code host:port}. */
  static void server(SpanBuilder span, String hostPort) {
    if (hostPort == null) {
      return;
    }
    int colon = hostPort.lastIndexOf(':');
    span.setAttribute(SemanticAttributes.SERVER_ADDRESS, colon < 0 ? hostPort : hostPort.substring(0, colon));
    if (colon >= 0) {
      try {
        span.setAttribute(SemanticAttributes.SERVER_PORT, Long.parseLong(hostPort.substring(colon + 1)));
      } catch (NumberFormatException e) {
        // a port we cannot read is left out
      }
    }
  }
}
