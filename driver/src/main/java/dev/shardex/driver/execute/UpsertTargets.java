package dev.shardex.driver.execute;

import dev.shardex.directory.lookup.Lookup;
import dev.shardex.directory.lookup.LookupValue;
import dev.shardex.driver.execute.UpsertRun.Held;
import dev.shardex.driver.route.LookupWork;
import dev.shardex.driver.route.UpsertWork;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Which row an ON DUPLICATE KEY UPDATE row updates when it collides with rows of other keys, as
 * MySQL decides it (its PRIMARY KEY first), and the collisions Shardex refuses by name rather than
 * resolve differently: two rows on other keys, an update that moves the row to another key, and
 * an earlier row of the statement that meets the same row (the update runs before the statement's
 * own rows are written).
 */
final class UpsertTargets {
  private final LookupWork w;
  private final UpsertWork u;
  private final TableDef def;
  private final UpsertShards shards;
  private final String verb;

  UpsertTargets(LookupWork w, UpsertShards shards, String verb) {
    this.w = w;
    this.u = w.upsert();
    this.def = w.table();
    this.shards = shards;
    this.verb = verb;
  }

  /**
   * The row MySQL updates for row r: the one its PRIMARY KEY collides with (MySQL checks that key
   * first), else the one row its other unique keys collide with; null when its PRIMARY KEY collides
   * with a row of its own key (its shard's ON DUPLICATE KEY UPDATE updates that row, as sent).
   * Refused by name: collisions with two rows on other keys than the PRIMARY KEY.
   */
  Held target(int r, List<Held> held) throws SQLException {
    for (Held h : held) {
      if (u.primaryKey().equals(List.of(w.lookups().get(h.clash().i()).column()))) {
        return h;
      }
    }
    if (collidesOnItsShard(r, List.of(u.primaryKey()))) {
      return null;
    }
    Held h = held.get(0);
    for (Held other : held) {
      if (!sameRow(h, other)) {
        throw twoRows(r, describe(h) + " and " + describe(other));
      }
    }
    if (collidesOnItsShard(r, u.uniqueKeys())) {
      throw twoRows(r, describe(h) + " and a row of " + def.keyColumn() + " " + w.keys()[r] + " on its own shard");
    }
    return h;
  }

  private boolean collidesOnItsShard(int r, List<List<String>> keys) throws SQLException {
    List<Object> binds = new ArrayList<>();
    String match = keys.get(0).isEmpty() ? null : UpsertShards.match(u, keys, def, r, w.keys()[r], binds, true, verb);
    return match != null && shards.any(w.shards()[r], def, match, binds);
  }

  /** An ON DUPLICATE KEY UPDATE of a row of another key that Shardex cannot run as MySQL would: refused by name. */
  void refuseUpdate(int r, Held h) throws SQLException {
    if (u.keySet() != null) {
      throw ShardexError.KEY_CHANGE.exception(def.name(), def.keyColumn(), "in ON DUPLICATE KEY UPDATE to " + u.keySet()
          + " for the row it collides with, which has " + def.keyColumn() + " " + h.key() + " (shard " + h.shard() + "; "
          + describe(h) + ")");
    }
    // the update of that row runs before the statement's own rows are written: an earlier row of the statement
    // that meets that row too would then come second
    for (int other = 0; other < r; other++) {
      if (w.keys()[other].toString().equals(h.clash().holder()) && updatesAlso(other, h)) {
        throw ShardexError.UPSERT_LOOKUP.exception(verb, def.name(), "gives a row that collides with the row of "
            + def.keyColumn() + " " + h.key() + " on shard " + h.shard() + " and another row of that key in the same"
            + " statement before it that " + (changesUniqueColumns() ? "may collide with it once updated" : "collides with it too")
            + ", so their updates would not run in the statement's order", "send one statement per row");
      }
    }
  }

  /**
   * Whether row {@code other}, which the statement sends to the shard of the row {@code h} that a
   * row of it updates there, may meet that row too: it collides with it (the shard says, by its
   * collation), or the update changes a column of a unique key, after which it might.
   */
  private boolean updatesAlso(int other, Held h) throws SQLException {
    if (changesUniqueColumns()) {
      return true;
    }
    List<Object> binds = new ArrayList<>(List.of(h.clash().raw(), h.key()));
    String match = UpsertShards.match(u, def, other, w.keys()[other], binds, true, verb);
    String row = UpsertShards.quote(w.lookups().get(h.clash().i()).column()) + " = ? AND " + UpsertShards.quote(def.keyColumn())
        + " = ?";
    return match != null && shards.any(h.shard(), def, row + " AND " + match, binds);
  }

  /** Whether the assignments set a column of a unique key (other than a looked-up column, which they cannot change). */
  private boolean changesUniqueColumns() {
    return u.uniqueKeys().stream().flatMap(List::stream).anyMatch(c -> u.assigned().contains(c) && !c.equals(def.keyColumn())
        && w.lookups().stream().noneMatch(l -> l.column().equals(c)));
  }

  private SQLException twoRows(int r, String which) {
    return ShardexError.UPSERT_LOOKUP.exception(verb, def.name(), "gives a row (" + def.keyColumn() + " " + w.keys()[r]
        + ") that collides with two rows on keys other than the PRIMARY KEY, " + which + ", of which MySQL updates the one"
        + " whose key it checks first",
        "UPDATE the row you mean by its key or id");
  }

  /** Whether two clashes of one row found the same row: unique values name one row each. */
  private static boolean sameRow(Held a, Held b) {
    Object theirs = a.row()[b.clash().i()];
    return a.key().equals(b.key()) && theirs != null
        && LookupValue.folded(LookupValue.of(theirs)).equals(LookupValue.folded(b.clash().v()));
  }

  String describe(Held h) {
    Lookup l = w.lookups().get(h.clash().i());
    return l.column() + " '" + h.clash().v() + "', which the row of " + def.keyColumn() + " " + h.key() + " holds on shard "
        + h.shard();
  }
}
