package dev.shardex.cli.analyze;

import java.util.Map;

/**
 * The fix for each refusal, in the README's own guidance. The error's message names the table and
 * column; this is the short form a report lists once per SHX id.
 */
final class Fixes {
  private static final Map<String, String> FIXES = Map.ofEntries(
      Map.entry("SHX1002", "bind the key with its column's type (a STRING key as a string, a BIGINT key as a number)"),
      Map.entry("SHX1101", "rewrite the statement so JSqlParser reads it, or route it with a hint /* shardex:shard=N */"),
      Map.entry("SHX1201", "add key = ? (or key IN (...)) to the WHERE clause, declare a lookup on the column it filters by "
          + "(lookup=COLUMN), or set shardex.scatterWrites=allow"),
      Map.entry("SHX1202", "insert the key column with the row (map the relation bidirectionally in an ORM)"),
      Map.entry("SHX1203", "delete and re-insert the row under its new key, or move the key with 'shardex users move'"),
      Map.entry("SHX1204", "name the current key in the WHERE clause (key = ?)"),
      Map.entry("SHX1205", "put the joined tables in one key space (the same key), or query them separately"),
      Map.entry("SHX1206", "join on the key columns, co-locate the tables (same key space and key), or declare the small "
          + "table GLOBAL"),
      Map.entry("SHX1207", "give the statement its key, or split it per shard"),
      Map.entry("SHX1208", "read the rows, then insert them"),
      Map.entry("SHX1209", "rewrite it as the message says (for a huge OFFSET: page by key ranges instead)"),
      Map.entry("SHX1210", "give every SHARDED table of the write the same key"),
      Map.entry("SHX1211", "put the shard key in that unique key, or declare a unique lookup on its column (lookup=COLUMN unique)"),
      Map.entry("SHX1214", "give the lookup column a plain value"),
      Map.entry("SHX1215", "write by the shard key, or look the row up first"),
      Map.entry("SHX1301", "use shardex.transactions=atomic (the default), or keep the transaction on one key"));

  private Fixes() {}

  static String of(String id) {
    return FIXES.getOrDefault(id, "see the message, and docs/errors.md for " + id);
  }
}
