package dev.shardex.driver.events;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * shardex.slowLogMs: a WARN line for each statement slower than the threshold and each refused
 * statement, at most one line a second of each kind (the next line says how many were left out).
 * A line carries the statement's text with every literal replaced by {@code ?}: no parameter or
 * literal value, and not the refusal's message (it may quote a key).
 */
final class SlowLog implements ShardexListener {
  private static final int MAX_TEXT = 500;
  private final long thresholdNanos;
  private final Sampler slow;
  private final Sampler refused;
  private final Consumer<String> out;

  SlowLog(long thresholdMs, Sampler.Clock clock) {
    this(thresholdMs, clock, org.slf4j.LoggerFactory.getLogger(SlowLog.class)::warn);
  }

  SlowLog(long thresholdMs, Sampler.Clock clock, Consumer<String> out) {
    this.thresholdNanos = TimeUnit.MILLISECONDS.toNanos(thresholdMs);
    this.slow = new Sampler(clock);
    this.refused = new Sampler(clock);
    this.out = out;
  }

  @Override
  public void statementEnded(StatementView s, Object started) {
    if (s.outcome() == StatementOutcome.REFUSED) {
      long left = refused.take();
      if (left >= 0) {
        out.accept("Shardex refused " + s.errorType() + more(left) + ": " + text(s));
      }
    } else if (s.elapsedNanos() >= thresholdNanos) {
      long left = slow.take();
      if (left >= 0) {
        out.accept("Shardex slow statement " + TimeUnit.NANOSECONDS.toMillis(s.elapsedNanos()) + " ms (route "
            + s.route().tag() + ", " + s.shardCalls() + " shard calls, " + s.outcome().tag()
            + (s.errorType() == null ? "" : " " + s.errorType()) + ")" + more(left) + ": " + text(s));
      }
    }
  }

  private static String more(long left) {
    return left == 0 ? "" : " (and " + left + " more not logged since the last line)";
  }

  private static String text(StatementView s) {
    String t = s.queryText();
    return t == null ? s.summary() : t.length() > MAX_TEXT ? t.substring(0, MAX_TEXT) + "..." : t;
  }

  /** One line a second: {@link #take} says whether this one may go and how many were left out before it. */
  static final class Sampler {
    /** Nanoseconds, injected so tests do not sleep. */
    interface Clock {
      long nanos();
    }

    private final Clock clock;
    private final AtomicLong next = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong skipped = new AtomicLong();

    Sampler(Clock clock) {
      this.clock = clock;
    }

    static Clock system() {
      return System::nanoTime;
    }

    /** -1: leave this one out; else log it, with this many left out before. */
    long take() {
      long now = clock.nanos();
      long due = next.get();
      if ((due != Long.MIN_VALUE && now - due < 0) || !next.compareAndSet(due, now + TimeUnit.SECONDS.toNanos(1))) {
        skipped.incrementAndGet();
        return -1;
      }
      return skipped.getAndSet(0);
    }
  }
}
