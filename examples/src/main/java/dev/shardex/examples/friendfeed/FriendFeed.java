package dev.shardex.examples.friendfeed;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * FriendFeed's schemaless store, as plain JDBC for one MySQL server (Bret Taylor, 2009): entities
 * are opaque compressed blobs keyed by a 16-byte id and sharded by it; every property one queries
 * by gets an index table {@code index_<property>(value, entity_id)} sharded on the value, in a key
 * space of its own. Writes go entity first, then index rows, with no transaction spanning them; so
 * an index may miss an entity (a crash between the writes) or still point at an old value. Reads
 * therefore re-filter the entities they fetch, and the {@link #clean Cleaner} repairs the indexes.
 * A new index is added online: writers start filling it, and the Cleaner back-fills the rest.
 */
public final class FriendFeed {
  /** The indexed properties and their SQL types; user_id is in the default BIGINT key space. */
  static final Map<String, String> TYPES = Map.of("user_id", "BIGINT", "link", "VARCHAR(255)", "feed_id", "BIGINT");
  static final Map<String, String> KEY_SPACES = Map.of("user_id", "", "link", " keyspace=link", "feed_id", "");

  private final Connection c;
  private final Set<String> indexes;

  /** {@code indexes}: the indexes this writer maintains (shared, so an added one is seen at once). */
  public FriendFeed(Connection c, Set<String> indexes) {
    this.c = c;
    this.indexes = indexes;
  }

  public static Set<String> indexes(String... names) {
    Set<String> s = ConcurrentHashMap.newKeySet();
    s.addAll(Arrays.asList(names));
    return s;
  }

  public void createSchema() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=id keyspace=entity */ CREATE TABLE IF NOT EXISTS entities (id BINARY(16) NOT NULL "
          + "PRIMARY KEY, updated TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), body MEDIUMBLOB NOT NULL)");
    }
    for (String index : indexes) {
      createIndexTable(index);
    }
  }

  private void createIndexTable(String property) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=" + property + KEY_SPACES.get(property) + " */ CREATE TABLE IF NOT EXISTS index_"
          + property + " (" + property + " " + TYPES.get(property) + " NOT NULL, entity_id BINARY(16) NOT NULL, "
          + "PRIMARY KEY (" + property + ", entity_id))");
    }
  }

  /** Adds an index online: its table, then every writer sharing the index set fills it. */
  public void addIndex(String property) throws SQLException {
    createIndexTable(property);
    indexes.add(property);
  }

  public void put(Entity e) throws SQLException {
    put(e, false);
  }

  /** Writes the entity, then its index rows; {@code crashBetween} stops after the entity (a killed writer). */
  public void put(Entity e, boolean crashBetween) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO entities (id, body) VALUES (?, ?) "
        + "ON DUPLICATE KEY UPDATE body = VALUES(body), updated = CURRENT_TIMESTAMP(6)")) {
      ps.setBytes(1, e.id());
      ps.setBytes(2, e.body());
      ps.executeUpdate();
    }
    if (crashBetween) {
      throw new SQLException("simulated crash of the writer between the entity and its index rows", "08S01");
    }
    for (String index : indexes) {
      Object value = e.get(index);
      if (value != null) {
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO index_" + index + " (" + index
            + ", entity_id) VALUES (?, ?)")) {
          ps.setObject(1, value);
          ps.setBytes(2, e.id());
          ps.executeUpdate();
        }
      }
    }
  }

  /** Entities whose {@code property} equals {@code value}: ids from the index, then the entities, re-filtered. */
  public List<Entity> query(String property, Object value) throws SQLException {
    List<byte[]> ids = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT entity_id FROM index_" + property + " WHERE " + property + " = ?")) {
      ps.setObject(1, value);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getBytes(1));
        }
      }
    }
    List<Entity> out = new ArrayList<>();
    for (int from = 0; from < ids.size(); from += 500) {
      List<byte[]> chunk = ids.subList(from, Math.min(ids.size(), from + 500));
      String marks = String.join(",", java.util.Collections.nCopies(chunk.size(), "?"));
      try (PreparedStatement ps = c.prepareStatement("SELECT id, body FROM entities WHERE id IN (" + marks + ")")) {
        for (int i = 0; i < chunk.size(); i++) {
          ps.setBytes(i + 1, chunk.get(i));
        }
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            Entity e = Entity.decode(rs.getBytes(1), rs.getBytes(2));
            if (value.toString().equals(String.valueOf(e.get(property)))) { // the index may be stale
              out.add(e);
            }
          }
        }
      }
    }
    out.sort((a, b) -> Arrays.compare(a.id(), b.id()));
    return out;
  }

  /** What one Cleaner pass repaired. */
  public record Repairs(long entities, long added, long removed) {}

  /**
   * The Cleaner: adds the index rows every entity should have (missing after a crash, or an index
   * that is new), then deletes index rows whose entity is gone or no longer has that value.
   */
  public Repairs clean() throws SQLException {
    Map<String, Set<String>> expected = new java.util.HashMap<>();
    for (String index : indexes) {
      expected.put(index, new LinkedHashSet<>());
    }
    long entities = 0;
    long added = 0;
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, body FROM entities")) {
      while (rs.next()) {
        entities++;
        Entity e = Entity.decode(rs.getBytes(1), rs.getBytes(2));
        for (String index : expected.keySet()) {
          Object value = e.get(index);
          if (value != null) {
            expected.get(index).add(value + "|" + HexFormat.of().formatHex(e.id()));
            try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO index_" + index + " (" + index
                + ", entity_id) VALUES (?, ?)")) {
              ps.setObject(1, value);
              ps.setBytes(2, e.id());
              added += ps.executeUpdate();
            }
          }
        }
      }
    }
    long removed = 0;
    for (String index : expected.keySet()) {
      List<Object[]> wrong = new ArrayList<>();
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT " + index + ", entity_id FROM index_" + index)) {
        while (rs.next()) {
          if (!expected.get(index).contains(rs.getString(1) + "|" + HexFormat.of().formatHex(rs.getBytes(2)))) {
            wrong.add(new Object[] {rs.getObject(1), rs.getBytes(2)});
          }
        }
      }
      for (Object[] w : wrong) {
        if (!stillWrong(index, w[0], (byte[]) w[1])) {
          continue; // a writer put that value after the scan: the row is right
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM index_" + index + " WHERE " + index + " = ? AND entity_id = ?")) {
          ps.setObject(1, w[0]);
          ps.setBytes(2, (byte[]) w[1]);
          removed += ps.executeUpdate();
        }
      }
    }
    return new Repairs(entities, added, removed);
  }

  /** Re-reads the entity just before deleting its index row, so a concurrent put is never undone. */
  private boolean stillWrong(String index, Object value, byte[] id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT body FROM entities WHERE id = ?")) {
      ps.setBytes(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return !rs.next() || !value.toString().equals(String.valueOf(Entity.decode(id, rs.getBytes(1)).get(index)));
      }
    }
  }
}
