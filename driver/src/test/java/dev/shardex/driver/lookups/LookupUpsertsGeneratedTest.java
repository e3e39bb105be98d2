package dev.shardex.driver.lookups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Generated writes into a table with a unique id and a unique email (both looked up, neither with
 * the shard key) from a few ids, emails and tenants (two of them on one shard), so REPLACE, ON DUPLICATE KEY UPDATE, INSERT,
 * UPDATE and DELETE keep colliding across tenants and shards. (INSERT IGNORE is left out: the
 * entries a skipped row claimed stay, extra, which the exact check of entries would count.) Each runs through
 * Shardex and on one plain database ({@link UpsertTwin}): the same count or the same MySQL error,
 * then the same rows, each on its tenant's shard, and exactly their lookup entries. A statement
 * Shardex refuses by name is not run on the plain database; at most a fifth may be refused
 * ({@code -Dupserts.seed=N -Dupserts.statements=N} pick another set).
 */
class LookupUpsertsGeneratedTest {
  static final int STATEMENTS = Integer.getInteger("upserts.statements", 150);
  static final long SEED = Long.getLong("upserts.seed", 20);

  @Test
  void generatedWrites_matchOneServer() throws Exception {
    UpsertTwin.create(LookupUpsertsTest.USERS.replace("ups_users", "ups_gen"),
        "shardex:sharded key=tenant_id lookup=id unique lookup=email unique lookup=team");
    try (UpsertTwin twin = new UpsertTwin("ups_gen", "tenant_id", LookupUpsertsTest.COLUMNS, "")) {
      long[] three = twin.keysOnDistinctShards(8300, 3);
      long[] tenants = {three[0], three[1], three[2], twin.keyOnShardOf(three[0], 8400)}; // two tenants share a shard
      Random random = new Random(SEED);
      List<String> refused = new ArrayList<>();
      for (int i = 0; i < STATEMENTS; i++) {
        String sql = statement(random, tenants);
        String refusal = run(twin, sql);
        if (refusal != null) {
          refused.add(refusal);
        }
      }
      System.out.println("LookupUpsertsGeneratedTest seed " + SEED + ": " + STATEMENTS + " statements, " + refused.size()
          + " refused by name: " + refused);
      assertTrue(refused.size() <= STATEMENTS / 5, refused.size() + " refused: " + refused);
    }
  }

  /** Runs the statement on both; returns Shardex's refusal (the plain database then does not run it), else null. */
  private static String run(UpsertTwin twin, String sql) throws SQLException {
    long actual;
    try {
      actual = UpsertTwin.update(twin.shardex, sql);
    } catch (SQLException e) {
      if (e.getMessage().startsWith("Shardex SHX12")) {
        twin.assertSame("the refused " + sql);
        return e.getMessage() + " (" + sql + ")";
      }
      SQLException expected = null;
      try {
        UpsertTwin.update(twin.oracle, sql);
      } catch (SQLException o) {
        expected = o;
      }
      // the code and state only: a plain INSERT colliding on two keys may name the other key than MySQL does
      assertEquals(expected == null ? "a count" : expected.getErrorCode() + " " + expected.getSQLState(),
          e.getErrorCode() + " " + e.getSQLState(), sql + ": " + e.getMessage());
      twin.assertSame(sql);
      return null;
    }
    assertEquals(UpsertTwin.update(twin.oracle, sql), actual, "count of " + sql);
    twin.assertSame(sql);
    return null;
  }

  private static String statement(Random random, long[] tenants) {
    int kind = random.nextInt(10);
    if (kind < 3) {
      return "REPLACE INTO ups_gen VALUES " + rows(random, tenants, 1 + random.nextInt(3));
    }
    if (kind < 6) {
      String set = random.nextBoolean() ? "visits = visits + 1" : "name = VALUES(name), visits = visits + 1";
      return LookupUpsertsTest.INSERT.replace("ups_users", "ups_gen") + rows(random, tenants, 1 + random.nextInt(3))
          + " ON DUPLICATE KEY UPDATE " + set;
    }
    if (kind < 8) {
      return "INSERT INTO ups_gen VALUES " + rows(random, tenants, 1);
    }
    if (kind == 8) {
      return "UPDATE ups_gen SET email = " + email(random) + " WHERE id = " + (1 + random.nextInt(10));
    }
    return "DELETE FROM ups_gen WHERE id = " + (1 + random.nextInt(10));
  }

  private static String rows(Random random, long[] tenants, int n) {
    StringBuilder s = new StringBuilder();
    for (int r = 0; r < n; r++) {
      s.append(r == 0 ? "" : ", ").append('(').append(1 + random.nextInt(10)).append(", ")
          .append(tenants[random.nextInt(tenants.length)]).append(", ").append(email(random)).append(", '")
          .append(random.nextBoolean() ? "red" : "blue").append("', 'n").append(random.nextInt(3)).append("', 1)");
    }
    return s.toString();
  }

  private static String email(Random random) {
    int e = random.nextInt(9);
    return e == 0 ? "NULL" : "'e" + e + "@x'";
  }
}
