package dev.shardex.driver.route;

import dev.shardex.directory.Directory;
import dev.shardex.directory.lookup.Lookup;
import dev.shardex.driver.sql.ColumnLink;
import dev.shardex.driver.sql.ColumnRef;
import dev.shardex.driver.sql.KeyPredicate;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.TableRef;
import dev.shardex.driver.sql.ValueSource;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.List;
import java.util.TreeSet;

/**
 * A SELECT/UPDATE/DELETE template's table references bound to the catalog: each reference's
 * declaration, the values of its tightest key predicate (else of a lookup predicate), and the components that join equalities
 * between key columns (of one key space) glue references into (rows of a component live together).
 */
final class QueryRefs {
  final RouteTemplate t;
  final TableDef[] defs;
  final List<ValueSource>[] keyValues;
  /** For a SHARDED reference without a key predicate: the values of a predicate on a lookup column, and that lookup. */
  final List<ValueSource>[] lookupValues;
  final Lookup[] lookupBy;
  private final int[] parent;

  @SuppressWarnings({"unchecked", "rawtypes"}) // Java has no generic array creation
  QueryRefs(RouteTemplate t, Directory dir) throws SQLException {
    this.t = t;
    int n = t.tables().size();
    this.defs = new TableDef[n];
    this.keyValues = new List[n];
    this.lookupValues = new List[n];
    this.lookupBy = new Lookup[n];
    this.parent = new int[n];
    for (int i = 0; i < n; i++) {
      defs[i] = dir.table(t.tables().get(i).name());
      parent[i] = i;
    }
    for (ColumnLink link : t.links()) {
      int a = resolve(link.left());
      int b = resolve(link.right());
      if (a >= 0 && b >= 0) {
        if (!defs[a].keySpace().equals(defs[b].keySpace())) {
          throw ShardexError.CROSS_KEYSPACE.exception(defs[a].name(), defs[a].keySpace(), defs[b].name(), defs[b].keySpace());
        }
        parent[find(a)] = find(b);
      }
    }
    for (KeyPredicate kp : t.keys()) {
      int r = resolve(kp.column());
      if (r >= 0 && (keyValues[r] == null || kp.values().size() < keyValues[r].size())) {
        keyValues[r] = kp.values();
      }
    }
    for (int i = 0; i < n && !t.keys().isEmpty(); i++) {
      if (keyValues[i] == null && defs[i] != null && defs[i].kind() == TableKind.SHARDED) {
        t.keys().forEach(kp -> lookupPredicate(kp, dir)); // only a SHARDED reference without a key predicate needs them
        break;
      }
    }
  }

  /** A predicate on a lookup column of a SHARDED reference that has no key predicate: the tightest one wins. */
  private void lookupPredicate(KeyPredicate kp, Directory dir) {
    if (resolve(kp.column()) >= 0) {
      return;
    }
    Lookup[] found = new Lookup[1];
    int r = resolve(kp.column(), (i, column) -> {
      found[0] = keyValues[i] == null ? lookupOn(dir, i, column) : null;
      return found[0] != null;
    });
    if (r >= 0 && (lookupValues[r] == null || kp.values().size() < lookupValues[r].size())) {
      lookupValues[r] = kp.values();
      lookupBy[r] = lookupOn(dir, r, kp.column().column());
    }
  }

  private Lookup lookupOn(Directory dir, int ref, String column) {
    if (defs[ref] == null || defs[ref].kind() != TableKind.SHARDED) {
      return null;
    }
    try {
      for (Lookup l : dir.lookups().of(defs[ref].name())) {
        if (l.column().equals(column)) {
          return l;
        }
      }
    } catch (SQLException e) {
      return null; // the directory cannot say: route as without the lookup
    }
    return null;
  }

  /**
   * Whether each entry names, among its columns, the shard key of a SHARDED reference that is not on
   * the NULL-supplying side of an outer join (its padded rows' NULL key would make one set of rows
   * on every shard): then each entry's rows (a group, a window's partition) live on one shard.
   */
  boolean allKeyed(List<dev.shardex.driver.sql.SelectShape.KeyGrouped> entries) {
    for (dev.shardex.driver.sql.SelectShape.KeyGrouped e : entries) {
      if (e.columns().stream().noneMatch(c -> {
        int r = resolve(c);
        return r >= 0 && !t.tables().get(r).nullSupplying();
      })) {
        return false;
      }
    }
    return true;
  }

  /** The SHARDED reference whose key column this is, or -1. */
  int resolve(ColumnRef c) {
    return resolve(c, this::isKey);
  }

  /** The reference a column names among those {@code matches} accepts for it, or -1. */
  private int resolve(ColumnRef c, java.util.function.BiPredicate<Integer, String> matches) {
    List<TableRef> refs = t.tables();
    for (int scope = c.scope(); scope >= 0; scope = t.scopeParents()[scope]) {
      int found = -1;
      int candidates = 0;
      for (int i = 0; i < refs.size(); i++) {
        TableRef ref = refs.get(i);
        if (ref.scope() != scope) {
          continue;
        }
        if (c.qualifier() != null) {
          if (ref.answersTo(c.qualifier())) {
            return matches.test(i, c.column()) ? i : -1;
          }
        } else if (matches.test(i, c.column())) {
          found = i;
          candidates++;
        }
      }
      if (c.qualifier() == null && candidates > 0) {
        return candidates == 1 || sameComponent(scope, c.column()) ? found : -1;
      }
      if (c.qualifier() == null && hasTables(scope)) {
        return -1; // unqualified names bind to the innermost scope that has tables
      }
    }
    return -1;
  }

  /** Whether every reference of the scope keyed on this column is in one component (JOIN ... USING). */
  private boolean sameComponent(int scope, String column) {
    int root = -1;
    for (int i = 0; i < defs.length; i++) {
      if (t.tables().get(i).scope() == scope && isKey(i, column)) {
        if (root >= 0 && find(i) != root) {
          return false;
        }
        root = find(i);
      }
    }
    return true;
  }

  private boolean hasTables(int scope) {
    return t.tables().stream().anyMatch(r -> r.scope() == scope);
  }

  boolean isKey(int ref, String column) {
    TableDef def = defs[ref];
    return def != null && def.kind() == TableKind.SHARDED && def.keyColumn().equals(column);
  }

  int find(int i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  }

  String names(List<Integer> refs) {
    TreeSet<String> names = new TreeSet<>();
    refs.forEach(r -> names.add(defs[r].name()));
    return String.join(", ", names);
  }

  String keyColumns(List<Integer> refs) {
    TreeSet<String> keys = new TreeSet<>();
    refs.forEach(r -> keys.add(defs[r].name() + "." + defs[r].keyColumn()));
    return String.join(", ", keys);
  }
}
