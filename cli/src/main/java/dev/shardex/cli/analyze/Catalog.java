package dev.shardex.cli.analyze;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.driver.sql.AutoIncrement;
import dev.shardex.driver.sql.Ddl;
import dev.shardex.driver.sql.Hints;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The what-if cluster's tables: created (empty) in its schema database, then declared in its
 * directory as the driver would on CREATE TABLE: the CREATE TABLE's own declaration (leading
 * comment or COMMENT='shardex:...'), then the layout's, which wins; a SHARDED table's
 * AUTO_INCREMENT column becomes a sequence, its lookups are declared, and a key space the layout
 * names but does not define is added, typed by the key column (STRING for text columns).
 */
final class Catalog {
  private final WhatIfCluster cluster;
  private final DirectoryStore store;

  Catalog(WhatIfCluster cluster, DirectoryStore store) {
    this.cluster = cluster;
    this.store = store;
  }

  /** Runs each CREATE TABLE in the schema database; returns the refused ones with the server's reason. */
  static List<String> createTables(SandboxCluster sandbox, String schemaUrl, List<String> createTables)
      throws SQLException {
    List<String> errors = new ArrayList<>();
    try (Connection c = java.sql.DriverManager.getConnection(schemaUrl, sandbox.user(), sandbox.password());
        Statement s = c.createStatement()) {
      s.execute("SET SESSION foreign_key_checks = 0");
      for (String sql : createTables) {
        try {
          s.execute(sql);
        } catch (SQLException e) {
          errors.add(tableOf(sql) + ": " + e.getMessage());
        }
      }
    }
    return errors;
  }

  /** The declarations the CREATE TABLE statements carry themselves. */
  static Layout declarations(List<String> createTables) throws SQLException {
    Layout layout = Layout.empty();
    for (String sql : createTables) {
      Hints.Declaration d = Hints.parse(sql).declaration();
      if (d == null) {
        d = Hints.fromTableComment(sql);
      }
      if (d != null) {
        layout.tables().put(tableOf(sql), d);
      }
    }
    return layout;
  }

  void declare(Layout layout, List<String> createTables) throws SQLException {
    Map<String, String> sources = new HashMap<>();
    for (String sql : createTables) {
      sources.put(tableOf(sql), sql);
    }
    for (Map.Entry<String, KeyType> ks : layout.keySpaces().entrySet()) {
      addKeySpace(ks.getKey(), ks.getValue());
    }
    for (Map.Entry<String, Hints.Declaration> t : layout.tables().entrySet()) {
      declare(t.getKey(), t.getValue(), sources.get(t.getKey()));
    }
  }

  private void declare(String table, Hints.Declaration d, String createTable) throws SQLException {
    var dir = cluster.directory();
    if (d.kind() != TableKind.SHARDED) {
      dir.declare(d.kind() == TableKind.GLOBAL ? TableDef.global(table) : TableDef.single(table, d.shard() == null ? 0 : d.shard()));
      return;
    }
    if (!store.keySpaces().stream().anyMatch(k -> k.name().equals(d.keySpace()))) {
      addKeySpace(d.keySpace(), textColumn(table, d.keyColumn()) ? KeyType.STRING : KeyType.BIGINT);
    }
    dir.declare(TableDef.sharded(table, d.keySpace(), TableDef.normalise(d.keyColumn())));
    String sequence = d.sequenceColumn() != null ? d.sequenceColumn() : createTable == null ? null : AutoIncrement.column(createTable);
    if (sequence != null && !sequence.equalsIgnoreCase("none")) {
      dir.declareSequence(table, TableDef.normalise(sequence));
    }
    for (Hints.LookupSpec l : d.lookups()) {
      dir.lookups().declare(table, l.column(), l.unique());
    }
  }

  private void addKeySpace(String name, KeyType type) throws SQLException {
    if (store.keySpaces().stream().noneMatch(k -> k.name().equals(name))) {
      store.addKeySpace(new KeySpace(name, type, KeySpace.LEAST_LOADED));
    }
  }

  /** Whether the schema gives the column a text type (a STRING key); false when the table or column is unknown. */
  private boolean textColumn(String table, String column) throws SQLException {
    try (Connection c = cluster.connectSchema(); PreparedStatement p = c.prepareStatement(
        "SELECT DATA_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ?")) {
      p.setString(1, table);
      p.setString(2, TableDef.normalise(column));
      try (ResultSet rs = p.executeQuery()) {
        return rs.next() && rs.getString(1).toLowerCase(Locale.ROOT).matches(".*(char|text|binary|blob|enum).*");
      }
    }
  }

  static String tableOf(String createTable) {
    Ddl ddl = Ddl.of(createTable);
    return ddl == null || ddl.tables().isEmpty() ? "?" : TableDef.normalise(Ddl.tableName(ddl.tables().get(0)));
  }
}
