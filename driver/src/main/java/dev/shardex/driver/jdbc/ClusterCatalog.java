package dev.shardex.driver.jdbc;

import dev.shardex.directory.lookup.Lookup;
import dev.shardex.driver.cluster.Cluster;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.driver.route.TableSchemas;
import dev.shardex.driver.sql.JoinSplitter;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the cross-shard cuts ({@code sql.JoinSplitter}, {@code JoinAggregates}, {@code JoinPushdown},
 * ...) read of one cluster: a table's declaration, its columns and their types with collations
 * (from the shards, cached by {@link TableSchemas}), and whether a column routes (the key or a lookup).
 */
final class ClusterCatalog implements JoinSplitter.Catalog {
  private final Cluster cluster;

  ClusterCatalog(Cluster cluster) {
    this.cluster = cluster;
  }

  @Override
  public TableDef def(String table) {
    try {
      return cluster.directory().table(table);
    } catch (SQLException e) {
      return null;
    }
  }

  @Override
  public List<String> columns(String table) throws SQLException {
    List<String> out = new ArrayList<>();
    for (String c : cluster.schemas().of(table).columnNames()) {
      out.add(c.toLowerCase(Locale.ROOT));
    }
    return out;
  }

  @Override
  public String type(String table, String column) throws SQLException {
    for (TableSchemas.Column c : cluster.schemas().of(table).columns()) {
      if (c.name().equals(column)) {
        return c.type() + (c.collation() == null ? "" : " " + c.collation());
      }
    }
    return null;
  }

  @Override
  public boolean routable(String table, String column) {
    TableDef def = def(table);
    if (def != null && def.keyColumn() != null && def.keyColumn().equalsIgnoreCase(column)) {
      return true;
    }
    try {
      for (Lookup l : cluster.directory().lookups().of(table)) {
        if (l.column().equalsIgnoreCase(column)) {
          return true;
        }
      }
    } catch (SQLException e) {
      return false;
    }
    return false;
  }
}
