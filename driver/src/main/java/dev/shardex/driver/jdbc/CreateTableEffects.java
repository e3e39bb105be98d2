package dev.shardex.driver.jdbc;

import dev.shardex.directory.Directory;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.sql.AutoIncrement;
import dev.shardex.driver.sql.Ddl;
import dev.shardex.driver.sql.Hints;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a CREATE TABLE records besides the table: its sequence-filled column (the declared
 * {@code sequence=COLUMN}, else a SHARDED table's AUTO_INCREMENT column, so ids are unique across
 * shards; {@code sequence=none} keeps each shard's own AUTO_INCREMENT), and the warning that an
 * undeclared table became SINGLE on the home shard, and its lookup indexes ({@code lookup=COLUMN [unique]}). A sequence attached over existing rows starts
 * after the largest value on any of the table's shards.
 */
final class CreateTableEffects {
  private static final Pattern TEMPORARY = Pattern.compile("^CREATE\\s+(?:OR\\s+REPLACE\\s+)?TEMPORARY\\b",
      Pattern.CASE_INSENSITIVE);
  static final String NO_SEQUENCE = "none";

  private CreateTableEffects() {}

  /** Whether this statement creates a table the catalog does not know yet: checked before it runs. */
  static boolean createsNew(RouteTemplate t, Directory dir) throws SQLException {
    Ddl ddl = t.ddl();
    return ddl != null && ddl.verb() == Ddl.Verb.CREATE_TABLE && dir.table(ddl.tables().get(0)) == null;
  }

  /**
   * Records the sequence-filled column; returns the warning for an undeclared table, or null. A
   * table the catalog knew already keeps its AUTO_INCREMENT ids as they were unless its declaration
   * names a sequence; a sequence starts after the largest value on any shard, never at 1 over rows.
   */
  static SQLWarning apply(Directory dir, RoutePlan plan, RouteTemplate t, String sql, boolean createsNew,
      dev.shardex.directory.move.ShardConnector shards) throws SQLException {
    TableDef def = plan.declare();
    if (def == null || t.ddl() == null || t.ddl().verb() != Ddl.Verb.CREATE_TABLE) {
      return null;
    }
    Hints.Declaration declaration = t.hints().declaration();
    String column = declaration == null ? null : declaration.sequenceColumn();
    if (column == null && createsNew && def.kind() == TableKind.SHARDED) {
      column = AutoIncrement.column(sql);
    }
    if (column != null && !column.toLowerCase(Locale.ROOT).equals(NO_SEQUENCE)) {
      dir.declareSequence(def.name(), column);
      // CREATE TABLE IF NOT EXISTS over a table that has rows (made before Shardex, or undeclared):
      // the sequence starts after the largest id on any shard, as AUTO_INCREMENT would
      dir.startSequenceAfter(def.name(), column,
          dev.shardex.directory.sequence.SequenceStore.largestOnShards(def.name(), column, plan.shards(), shards));
    }
    if (declaration != null && def.kind() == TableKind.SHARDED) {
      for (Hints.LookupSpec l : declaration.lookups()) {
        dir.lookups().declare(def.name(), l.column(), l.unique());
      }
    }
    boolean temporary = TEMPORARY.matcher(sql.substring(dev.shardex.driver.sql.SqlLexer.skipSpaceAndComments(sql, 0))).find();
    if (!createsNew || declaration != null || temporary) {
      return null;
    }
    return new SQLWarning("Shardex: table " + def.name() + " has no declaration, so it was created SINGLE on the home shard "
        + def.homeShard() + " and all its rows live there; to spread it, declare it in the CREATE TABLE with the option "
        + "COMMENT='shardex:sharded key=COLUMN' (or 'shardex:global'), or a leading /* shardex:sharded key=COLUMN */", "01000");
  }
}
