package dev.shardex.driver.sql;

import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code /* shardex:... *}{@code /} comments that lead a statement: routing hints
 * ({@code key=42}, {@code shard=3}; honoured only with shardex.hints=true) and table declarations
 * on CREATE TABLE ({@code sharded key=COL [keyspace=NAME] [lookup=COL [unique]]...}, {@code global},
 * {@code single [shard=N]}).
 */
public record Hints(String key, Integer shard, Declaration declaration) {
  public static final Hints NONE = new Hints(null, null, null);
  private static final String PREFIX = "shardex:";

  /** A table declaration carried by a CREATE TABLE. */
  public record Declaration(TableKind kind, String keyColumn, String keySpace, Integer shard, String sequenceColumn,
      List<LookupSpec> lookups) {
    public Declaration(TableKind kind, String keyColumn, String keySpace, Integer shard) {
      this(kind, keyColumn, keySpace, shard, null, List.of());
    }

    public Declaration(TableKind kind, String keyColumn, String keySpace, Integer shard, String sequenceColumn) {
      this(kind, keyColumn, keySpace, shard, sequenceColumn, List.of());
    }
  }

  /** {@code lookup=COLUMN [unique]}: a lookup index the declaration asks for. */
  public record LookupSpec(String column, boolean unique) {}

  public boolean routes() {
    return key != null || shard != null;
  }

  public static Hints parse(String sql) throws SQLException {
    if (sql.indexOf(PREFIX) < 0) {
      return NONE;
    }
    Map<String, String> attrs = new LinkedHashMap<>();
    List<LookupSpec> lookups = new ArrayList<>();
    int i = 0;
    while (true) {
      int start = SqlLexer.skipSpaceAndComments(sql, i);
      int open = sql.indexOf("/*", i);
      if (open < 0 || open >= start) {
        break;
      }
      int close = sql.indexOf("*/", open + 2);
      String body = sql.substring(open + 2, close < 0 ? sql.length() : close).trim();
      if (body.startsWith(PREFIX)) {
        attributes(body.substring(PREFIX.length()), attrs);
        lookups(body.substring(PREFIX.length()), lookups);
      }
      i = close < 0 ? sql.length() : close + 2;
    }
    return attrs.isEmpty() ? NONE : fromAttributes(attrs, lookups);
  }

  /**
   * The declaration in a CREATE TABLE's own {@code COMMENT='shardex:sharded key=user_id'} option,
   * or null: unlike a leading comment, no tool strips it, and the table keeps it on every shard.
   */
  public static Declaration fromTableComment(String sql) throws SQLException {
    String comment = TableComment.of(sql);
    if (comment == null || !comment.strip().startsWith(PREFIX)) {
      return null;
    }
    String body = comment.strip().substring(PREFIX.length());
    Hints h = fromAttributes(attributes(body, new LinkedHashMap<>()), lookups(body, new ArrayList<>()));
    if (h.declaration() == null) {
      throw ShardexError.BAD_DECLARATION.exception("COMMENT='" + comment + "'",
          "a table comment declares one of sharded key=COLUMN, global, single [shard=N]");
    }
    return h.declaration();
  }

  private static Map<String, String> attributes(String body, Map<String, String> attrs) {
    for (String token : body.trim().split("\\s+")) {
      int eq = token.indexOf('=');
      attrs.put(eq < 0 ? token.toLowerCase(Locale.ROOT) : token.substring(0, eq).toLowerCase(Locale.ROOT),
          eq < 0 ? "" : token.substring(eq + 1));
    }
    return attrs;
  }

  /**
   * The {@code lookup=COLUMN} words in order; a {@code unique} word applies to the lookup just
   * before it ({@code lookup=id unique lookup=email unique lookup=last_name}).
   */
  private static List<LookupSpec> lookups(String body, List<LookupSpec> lookups) throws SQLException {
    for (String token : body.trim().split("\\s+")) {
      String lower = token.toLowerCase(Locale.ROOT);
      if (lower.startsWith("lookup=") && token.length() > "lookup=".length()) {
        lookups.add(new LookupSpec(TableDef.normalise(token.substring("lookup=".length())), false));
      } else if (lower.equals("unique")) {
        if (lookups.isEmpty() || lookups.get(lookups.size() - 1).unique()) {
          throw ShardexError.BAD_DECLARATION.exception("'shardex:" + body.trim() + "'",
              "'unique' follows the lookup it applies to: lookup=COLUMN unique");
        }
        lookups.set(lookups.size() - 1, new LookupSpec(lookups.get(lookups.size() - 1).column(), true));
      }
    }
    return lookups;
  }

  private static Hints fromAttributes(Map<String, String> attrs, List<LookupSpec> lookups) throws SQLException {
    TableKind kind = null;
    for (TableKind k : TableKind.values()) {
      if (attrs.containsKey(k.name().toLowerCase(Locale.ROOT))) {
        if (kind != null) {
          throw ShardexError.BAD_DECLARATION.exception("/* shardex:" + String.join(" ", attrs.keySet()) + " */",
              "give one of sharded, global, single");
        }
        kind = k;
      }
    }
    Integer shard = attrs.containsKey("shard") ? parseShard(attrs.get("shard")) : null;
    if (kind == null) {
      for (String name : attrs.keySet()) {
        if (!name.equals("key") && !name.equals("shard")) {
          throw ShardexError.BAD_HINT.exception(name, "known hints are key=K, shard=N, sharded, global, single");
        }
      }
      return new Hints(attrs.get("key"), shard, null);
    }
    for (String name : attrs.keySet()) {
      if (!java.util.Set.of("sharded", "global", "single", "key", "keyspace", "shard", "sequence", "lookup", "unique")
          .contains(name)) {
        throw ShardexError.BAD_DECLARATION.exception("/* shardex:" + String.join(" ", attrs.keySet()) + " */",
            "unknown attribute '" + name + "'; a declaration takes key=COLUMN, keyspace=NAME, shard=N, sequence=COLUMN"
                + " or lookup=COLUMN [unique]");
      }
    }
    if (kind != TableKind.SHARDED && !lookups.isEmpty()) {
      throw ShardexError.BAD_DECLARATION.exception("/* shardex:" + String.join(" ", attrs.keySet()) + " */",
          "lookup=COLUMN applies to SHARDED tables only (a " + kind + " table is found without one)");
    }
    String keyColumn = attrs.get("key");
    if (kind == TableKind.SHARDED && (keyColumn == null || keyColumn.isEmpty())) {
      throw ShardexError.BAD_DECLARATION.exception("/* shardex:sharded */", "a SHARDED table needs key=COLUMN");
    }
    String keySpace = attrs.getOrDefault("keyspace", KeySpace.DEFAULT);
    return new Hints(null, null, new Declaration(kind, kind == TableKind.SHARDED ? keyColumn : null,
        kind == TableKind.SHARDED ? keySpace : null, shard, attrs.get("sequence"), List.copyOf(lookups)));
  }

  private static Integer parseShard(String value) throws SQLException {
    try {
      return Integer.valueOf(value);
    } catch (NumberFormatException e) {
      throw ShardexError.BAD_HINT.exception("shard=" + value, "the shard must be a shard id (a whole number)");
    }
  }
}
