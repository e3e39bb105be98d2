package dev.shardex.driver.jdbc;

import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.StatementType;
import java.util.Locale;

/**
 * Whether a statement may be answered by a replica: a plain SELECT that takes no lock (FOR UPDATE,
 * FOR SHARE, LOCK IN SHARE MODE), reads no session value Shardex answers itself (LAST_INSERT_ID(),
 * FOUND_ROWS(), ...), and calls nothing with a side effect or a per-server meaning (locks, sequences,
 * variables, SLEEP). Anything in doubt goes to the primary: a false "no" costs a primary read, a false
 * "yes" could be a wrong answer. Asked only for connections that want replica reads.
 */
final class ReplicaSafe {
  /** Upper-case fragments that send a SELECT to the primary wherever they appear (identifiers too: in doubt, primary). */
  private static final String[] PRIMARY_ONLY = {"FOR UPDATE", "FOR SHARE", "LOCK IN SHARE", "GET_LOCK", "RELEASE_",
      "IS_FREE_LOCK", "IS_USED_LOCK", "NEXTVAL", "SETVAL", "LASTVAL", "NEXT VALUE", "PREVIOUS VALUE", "LAST_INSERT_ID",
      "FOUND_ROWS", "ROW_COUNT", "SLEEP", "BENCHMARK", "@", " INTO ", "MASTER_", "SOURCE_POS", "GTID", "UUID"};

  private ReplicaSafe() {}

  static boolean select(RouteTemplate t, RoutePlan plan, String sql) {
    if (t.type() != StatementType.SELECT || plan.write() || t.functions() != 0
        || (t.shape() != null && t.shape().lockingRead())) {
      return false;
    }
    String upper = sql.toUpperCase(Locale.ROOT).replace('\n', ' ').replace('\t', ' ').replace('\r', ' ');
    for (String fragment : PRIMARY_ONLY) {
      if (upper.contains(fragment)) {
        return false;
      }
    }
    return true;
  }
}
