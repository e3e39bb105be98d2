package dev.shardex.driver.route;

import dev.shardex.directory.Directory;
import dev.shardex.driver.sql.Ddl;
import dev.shardex.driver.sql.Hints;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.List;
import java.util.TreeSet;

/**
 * Routes DDL: to every shard its table lives on (all shards for SHARDED and GLOBAL tables, the
 * home shard for SINGLE and unknown ones). A CREATE TABLE's plan carries the declaration to record
 * (its comment's, else the catalog's); a RENAME the renamed declaration; a DROP the names to forget.
 */
final class DdlRoute {
  private DdlRoute() {}

  static RoutePlan plan(RouteTemplate t, Directory dir) throws SQLException {
    Ddl ddl = t.ddl();
    if (ddl.verb() == Ddl.Verb.OTHER || ddl.tables().isEmpty()) {
      return new RoutePlan(Fanout.DDL, List.copyOf(dir.shards().keySet()), true, null, List.of());
    }
    if (ddl.verb() == Ddl.Verb.CREATE_TABLE) {
      String name = ddl.tables().get(0);
      TableDef def = declaration(name, t.hints(), dir);
      return new RoutePlan(Fanout.DDL, shardsOf(def, dir), true, def, List.of());
    }
    if (ddl.verb() == Ddl.Verb.RENAME) {
      TableDef def = dir.table(ddl.tables().get(0));
      if (def == null) {
        return new RoutePlan(Fanout.DDL, List.of(dir.homeShard()), true, null, List.of());
      }
      TableDef renamed = new TableDef(ddl.tables().get(1), def.kind(), def.keySpace(), def.keyColumn(), def.homeShard());
      return new RoutePlan(Fanout.DDL, shardsOf(def, dir), true, renamed, List.of(def.name()));
    }
    TreeSet<Integer> shards = new TreeSet<>();
    for (String name : ddl.tables()) {
      TableDef def = dir.table(name);
      shards.addAll(def == null ? List.of(dir.homeShard()) : shardsOf(def, dir));
    }
    List<String> forget = ddl.verb() == Ddl.Verb.DROP_TABLE ? ddl.tables() : List.of();
    return new RoutePlan(Fanout.DDL, List.copyOf(shards), true, null, forget);
  }

  /** The declaration a CREATE TABLE makes: its comment's, else the catalog's, else SINGLE on home. */
  private static TableDef declaration(String name, Hints hints, Directory dir) throws SQLException {
    Hints.Declaration d = hints.declaration();
    TableDef existing = dir.table(name);
    if (d == null) {
      return existing != null ? existing : TableDef.single(name, dir.homeShard());
    }
    TableDef declared = declared(name, d, dir);
    if (existing != null && !existing.equals(declared)) {
      throw ShardexError.BAD_DECLARATION.exception("of table " + name, "it is already declared " + describe(existing)
          + "; a CREATE TABLE cannot change how an existing table is spread (drop it first, or use 'shardex tables')");
    }
    return declared;
  }

  private static String describe(TableDef def) {
    return switch (def.kind()) {
      case SHARDED -> "SHARDED by " + def.keyColumn() + " in key space " + def.keySpace();
      case GLOBAL -> "GLOBAL";
      case SINGLE -> "SINGLE on shard " + def.homeShard();
    };
  }

  private static TableDef declared(String name, Hints.Declaration d, Directory dir) throws SQLException {
    return switch (d.kind()) {
      case SHARDED -> {
        dir.keySpace(d.keySpace());
        yield TableDef.sharded(name, d.keySpace(), d.keyColumn());
      }
      case GLOBAL -> TableDef.global(name);
      case SINGLE -> {
        int home = d.shard() == null ? dir.homeShard() : d.shard();
        dir.shard(home);
        yield TableDef.single(name, home);
      }
    };
  }

  static List<Integer> shardsOf(TableDef def, Directory dir) throws SQLException {
    if (def.kind() == TableKind.SINGLE) {
      return List.of(def.homeShard() == null ? dir.homeShard() : def.homeShard());
    }
    return List.copyOf(dir.shards().keySet());
  }
}
