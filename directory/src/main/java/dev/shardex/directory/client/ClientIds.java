package dev.shardex.directory.client;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Directory client ids: {@code NAME-} and 18 base-36 characters, a logical millisecond clock (9),
 * the process id (5) and a random part (4). The id names the client's row in {@code clients} and
 * is carried by every XA gtrid and commit record the driver instance writes, so it must never
 * repeat: within a JVM the clock part strictly increases (two clients opened in the same
 * millisecond get consecutive values); across JVMs on one host the process id differs between
 * processes alive at the same time; across hosts the random part separates what the clock and the
 * process id do not. The suffix has a fixed width, so no id is a prefix or substring of another
 * one with the same name (recovery matches gtrids against live ids by substring).
 *
 * <p>No {@code SecureRandom} (and no {@code UUID.randomUUID}): nothing here is a secret, and its
 * initialisation cost a fresh JVM's first connection about 4%.
 */
public final class ClientIds {
  private static final AtomicLong LAST = new AtomicLong();
  private static final long PID = ProcessHandle.current().pid();

  private ClientIds() {}

  public static String next(String name) {
    long now = System.currentTimeMillis();
    long t;
    long last;
    do { // a CAS loop rather than updateAndGet's lambda: this runs on the connect path
      last = LAST.get();
      t = Math.max(last + 1, now);
    } while (!LAST.compareAndSet(last, t));
    StringBuilder id = new StringBuilder(name.length() + 19).append(name).append('-');
    base36(id, t, 9);
    base36(id, PID, 5);
    base36(id, ThreadLocalRandom.current().nextLong(), 4);
    return id.toString();
  }

  /** The low {@code width} base-36 digits of {@code value} (its absolute value), zero-padded. */
  private static void base36(StringBuilder out, long value, int width) {
    char[] digits = new char[width];
    long v = value == Long.MIN_VALUE ? 0 : Math.abs(value);
    for (int i = width - 1; i >= 0; i--) {
      digits[i] = Character.forDigit((int) (v % 36), 36);
      v /= 36;
    }
    out.append(digits);
  }
}
