package dev.shardex.cli.analyze;

import dev.shardex.driver.sql.RouteTemplate;

/**
 * One digest (a normalised text: the template the driver would cache it under): how its executions
 * routed, and, if any was refused, the error. Its text holds no literal, so it can be printed.
 */
final class DigestStats {
  final String text;
  final RouteTemplate template;
  final Shape shape;
  final Tally tally = new Tally();
  String reason;
  String message;

  DigestStats(String text, RouteTemplate template, Shape shape) {
    this.text = text;
    this.template = template;
    this.shape = shape;
  }

  void add(Verdict v, long count, double seconds) {
    tally.add(v.route(), count, seconds);
    if (v.route() == Route.REFUSED && reason == null) {
      reason = v.reason();
      message = v.message();
    }
  }

  long executions() {
    long n = 0;
    for (Route r : Route.values()) {
      n += tally.count(r);
    }
    return n;
  }

  /** Its executions that went to all shards or several. */
  long scattering() {
    return tally.count(Route.ALL) + tally.count(Route.SEVERAL);
  }
}
