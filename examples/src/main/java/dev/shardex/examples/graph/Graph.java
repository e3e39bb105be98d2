package dev.shardex.examples.graph;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Facebook's social-graph write, as plain JDBC for one MySQL server: add an edge, and if it is new,
 * increment the node's edge count. Both tables are sharded by the node, so both statements reach
 * the node's shard. Two ways to run it, as in Ryan Mack's talk:
 * <ul>
 *   <li>{@link #addEdgeInTransaction}: START, INSERT, UPDATE, COMMIT as separate round trips; the
 *       count row stays locked from the UPDATE until the COMMIT arrives, across network hops.</li>
 *   <li>{@link #addEdgeNonStored}: the same logic as one multi-statement text (a "non-stored
 *       procedure"); the lock is taken and released inside the server, in one round trip.</li>
 * </ul>
 */
public final class Graph {
  private final Connection c;

  public Graph(Connection c) {
    this.c = c;
  }

  public void createSchema() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=node_id */ CREATE TABLE IF NOT EXISTS edges (node_id BIGINT NOT NULL, "
          + "target_id BIGINT NOT NULL, created TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), PRIMARY KEY (node_id, target_id))");
      s.execute("/* shardex:sharded key=node_id */ CREATE TABLE IF NOT EXISTS node_counts (node_id BIGINT NOT NULL PRIMARY KEY, "
          + "edge_count BIGINT NOT NULL DEFAULT 0)");
    }
  }

  public void addNode(long node) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO node_counts (node_id, edge_count) VALUES (?, 0)")) {
      ps.setLong(1, node);
      ps.executeUpdate();
    }
  }

  /** Four round trips; returns whether the edge was new. */
  public boolean addEdgeInTransaction(long node, long target) throws SQLException {
    c.setAutoCommit(false);
    try {
      boolean added;
      try (PreparedStatement ins = c.prepareStatement("INSERT IGNORE INTO edges (node_id, target_id) VALUES (?, ?)")) {
        ins.setLong(1, node);
        ins.setLong(2, target);
        added = ins.executeUpdate() == 1;
      }
      if (added) {
        try (PreparedStatement up = c.prepareStatement("UPDATE node_counts SET edge_count = edge_count + 1 WHERE node_id = ?")) {
          up.setLong(1, node);
          up.executeUpdate();
        }
      }
      c.commit();
      return added;
    } catch (SQLException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(true);
    }
  }

  /** One round trip: the whole transaction as one text; returns whether the edge was new. */
  public boolean addEdgeNonStored(long node, long target) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("START TRANSACTION; INSERT IGNORE INTO edges (node_id, target_id) VALUES (" + node + ", " + target + "); "
          + "UPDATE node_counts SET edge_count = edge_count + ROW_COUNT() WHERE node_id = " + node + "; COMMIT");
      s.getMoreResults(); // the INSERT's result
      return s.getUpdateCount() == 1;
    }
  }

  /** [edges stored for the node, the node's edge_count]: equal when no increment was lost. */
  public long[] counts(long node) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT (SELECT COUNT(*) FROM edges e WHERE e.node_id = n.node_id), "
        + "n.edge_count FROM node_counts n WHERE n.node_id = ?")) {
      ps.setLong(1, node);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? new long[] {rs.getLong(1), rs.getLong(2)} : new long[] {0, 0};
      }
    }
  }
}
