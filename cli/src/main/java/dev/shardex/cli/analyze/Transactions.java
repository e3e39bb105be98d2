package dev.shardex.cli.analyze;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Transactions rebuilt per connection, as {@code vt transactions} does: BEGIN / START TRANSACTION
 * open one, COMMIT / ROLLBACK end it, {@code SET autocommit=0} keeps one open until COMMIT or
 * {@code autocommit=1}; a connection that quits mid-transaction never committed it. For each
 * transaction the distinct shards its routed statements would touch are counted: more than one is a
 * cross-shard transaction, which {@code shardex.transactions=atomic} turns into XA branches and
 * {@code single} refuses (SHX1301). Autocommit statements are not transactions here.
 */
final class Transactions {
  /** What a statement does to a transaction, read from its first words. */
  enum Control {
    BEGIN, END, AUTOCOMMIT_OFF, AUTOCOMMIT_ON, NONE;

    static Control of(String sql) {
      int i = 0;
      while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
        i++;
      }
      if (i >= sql.length() || "BbCcRrSs".indexOf(sql.charAt(i)) < 0) {
        return NONE; // nearly every statement stops here without a copy
      }
      String head = sql.substring(i, Math.min(sql.length(), i + 40)).toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
      if (head.startsWith("BEGIN") || head.startsWith("START TRANSACTION")) {
        return BEGIN;
      }
      if (head.startsWith("COMMIT") || (head.startsWith("ROLLBACK") && !head.startsWith("ROLLBACK TO"))) {
        return END;
      }
      String set = head.replaceAll("@@|SESSION[ .]|LOCAL[ .]| ", "");
      if (set.startsWith("SETAUTOCOMMIT=")) {
        return set.startsWith("SETAUTOCOMMIT=0") || set.startsWith("SETAUTOCOMMIT=OFF") ? AUTOCOMMIT_OFF : AUTOCOMMIT_ON;
      }
      return NONE;
    }
  }

  private static final class State {
    boolean open;
    boolean manual;
    int statements;
    final BitSet shards = new BitSet();
  }

  private final int shardCount;
  private final Map<Long, State> connections = new HashMap<>();
  private long transactions;
  private long spanning;
  private final long[] byShards = new long[4]; // 1, 2, 3, 4+ shards

  Transactions(int shardCount) {
    this.shardCount = shardCount;
  }

  void control(long connection, Control c) {
    State s = connections.computeIfAbsent(connection, k -> new State());
    switch (c) {
      case BEGIN -> {
        finish(s);
        s.open = true;
      }
      case END -> finish(s);
      case AUTOCOMMIT_OFF -> s.manual = true;
      case AUTOCOMMIT_ON -> {
        finish(s);
        s.manual = false;
      }
      default -> { }
    }
  }

  /** A routed statement on the connection: it joins the open transaction, if any. */
  void statement(long connection, Verdict v) {
    State s = connections.get(connection);
    if (s == null || !(s.open || s.manual) || v.route() == Route.IGNORED || v.route() == Route.REFUSED) {
      return;
    }
    s.statements++;
    if (v.route() == Route.ALL && v.shards().isEmpty()) {
      s.shards.set(0, shardCount);
    }
    for (int shard : v.shards()) {
      s.shards.set(shard);
    }
  }

  void quit(long connection) {
    connections.remove(connection);
  }

  private void finish(State s) {
    if (s.statements > 0) {
      transactions++;
      int n = s.shards.cardinality();
      spanning += n > 1 ? 1 : 0;
      byShards[Math.max(0, Math.min(3, n - 1))]++;
    }
    s.open = false;
    s.statements = 0;
    s.shards.clear();
  }

  long count() {
    return transactions;
  }

  long spanning() {
    return spanning;
  }

  /** Transactions by the shards they touch: 1, 2, 3, 4 or more. */
  long[] byShards() {
    return byShards.clone();
  }
}
