package dev.shardex.driver.route;

import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.ValueSource;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.List;

/**
 * The route stage's part of rows held until their key arrives (the driver's part is
 * jdbc.PendingInserts): which INSERT may be held, and where a held row goes once an UPDATE names
 * its key. An INSERT may be held only inside a transaction, as one row, with an id the sequence
 * fills (the UPDATE finds the row by it); anything else keeps its named refusal.
 */
public final class PendingRoute {
  private PendingRoute() {}

  /** Whether a one-row INSERT gives its key as NULL (literal or bound). */
  static boolean nullKey(RouteTemplate t, Object[] values, int keyIndex, TableDef def) throws SQLException {
    List<List<ValueSource>> rows = t.insertRows();
    return rows.size() == 1 && keyIndex < rows.get(0).size()
        && !(rows.get(0).get(keyIndex) instanceof ValueSource.Opaque)
        && Router.valueOf(rows.get(0).get(keyIndex), values, def.name(), def.keyColumn()) == null;
  }

  /** The plan of a held INSERT, or its refusal when it may not be held ({@code missing}: it omits the key). */
  static RoutePlan hold(RouteTemplate t, TableDef def, RoutePlan.Fill fill, RouteContext ctx, boolean missing)
      throws SQLException {
    if (!ctx.holdsKeyless() || fill == null || t.upsertKind() != null || t.insertRows().size() != 1) {
      throw missing ? ShardexError.INSERT_NO_KEY.exception(def.name(), def.keyColumn(), def.keyColumn(), def.keyColumn())
          : ShardexError.NULL_KEY.exception(def.name());
    }
    return new RoutePlan(Fanout.HOLD, List.of(), true, null, List.of(), List.of(), null, fill, null);
  }

  /** The shard of a held row's key (a new key is placed), marked in flight for the transaction. */
  public static int shardOfKey(TableDef def, Object key, RouteContext ctx) throws SQLException {
    return ctx.write(def.keySpace(), key, true).shardId();
  }

  /** The key an UPDATE sets for a held row, as the row will store it. */
  public static Object keyOf(TableDef def, ValueSource keySet, Object[] values, RouteContext ctx) throws SQLException {
    Object raw = Router.valueOf(keySet, values, def.name(), def.keyColumn());
    return ctx.directory().keySpace(def.keySpace()).keyType().canonical(raw, def.name(), def.keyColumn());
  }

  /**
   * The lookup entries a held row needs once its key is known, as for an INSERT that gave the key
   * (null when its table has no lookups): the held INSERT's values, its filled id, that key and shard.
   */
  public static LookupWork lookupWork(RouteTemplate insert, TableDef def, Object[] values, RoutePlan.Fill fill, Object key,
      int shard, RouteContext ctx) throws SQLException {
    List<dev.shardex.directory.lookup.Lookup> lookups = ctx.directory().lookups().of(def.name());
    if (lookups.isEmpty()) {
      return null;
    }
    List<String> columns = insert.insertColumns().isEmpty() ? ctx.schema(def.name()).columnNames() : insert.insertColumns();
    return LookupWork.insert(insert, def, lookups, columns, values, fill, new Object[] {key}, new int[] {shard});
  }

  /** An id as a whole number (0 when it is none), as the sequence handed it out. */
  public static long idOf(ValueSource source, Object[] values) {
    return SequenceFill.wholeValue(source, values);
  }
}
