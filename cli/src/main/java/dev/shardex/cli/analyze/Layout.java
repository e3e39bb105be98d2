package dev.shardex.cli.analyze;

import dev.shardex.driver.sql.Hints;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.TableDef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The proposed layout: how each table is spread, and the key spaces. Its file form is one
 * declaration a line, in the words of a table comment ({@code shardex:...}, see the README's
 * "Declaring tables"), so a layout tried here is the one the DDL will carry:
 *
 * <pre>
 * # comments and blank lines are skipped
 * keyspace users BIGINT            # default (BIGINT) always exists; STRING for text keys
 * posts     sharded key=author_id  lookup=slug unique
 * authors   sharded key=id keyspace=default
 * countries global
 * jobs      single
 * </pre>
 *
 * The words are read by the driver's own declaration parser, so a bad one fails as it would in a
 * CREATE TABLE (SHX1103). Tables the layout does not name are as the schema's comments declare
 * them, else SINGLE (the driver's default).
 */
record Layout(Map<String, Hints.Declaration> tables, Map<String, KeyType> keySpaces) {
  static Layout empty() {
    return new Layout(new LinkedHashMap<>(), new LinkedHashMap<>());
  }

  static Layout read(Path file) throws IOException, SQLException {
    Layout layout = empty();
    int n = 0;
    for (String raw : Files.readAllLines(file)) {
      n++;
      String line = raw.replaceAll("#.*", "").strip();
      if (!line.isEmpty()) {
        layout.add(line, file.getFileName() + ":" + n);
      }
    }
    return layout;
  }

  /** One declaration line: {@code TABLE words...} or {@code keyspace NAME [BIGINT|STRING]}. */
  void add(String line, String where) throws SQLException {
    String[] words = line.split("\\s+", 2);
    if (words[0].equalsIgnoreCase("keyspace")) {
      String[] ks = words.length < 2 ? new String[0] : words[1].split("\\s+");
      if (ks.length < 1 || ks.length > 2) {
        throw bad(where, line, "a key space line is 'keyspace NAME [BIGINT|STRING]'");
      }
      keySpaces.put(ks[0], ks.length == 2 ? keyType(ks[1], where, line) : KeyType.BIGINT);
      return;
    }
    if (words.length < 2) {
      throw bad(where, line, "a table line is 'TABLE sharded key=COLUMN ...', 'TABLE global' or 'TABLE single'");
    }
    Hints.Declaration d;
    try {
      d = Hints.parse("/* shardex:" + words[1] + " */ SELECT 1").declaration();
    } catch (SQLException e) { // the driver's own words for what is wrong, with the line it is on
      throw bad(where, line, e.getMessage().replaceFirst("^Shardex SHX\\d+: ", ""));
    }
    if (d == null) {
      throw bad(where, line, "declare one of sharded key=COLUMN, global, single [shard=N]");
    }
    tables.put(TableDef.normalise(words[0]), d);
  }

  /** This layout with {@code over}'s declarations winning. */
  Layout overriddenBy(Layout over) {
    Layout merged = empty();
    merged.tables.putAll(tables);
    merged.tables.putAll(over.tables);
    merged.keySpaces.putAll(keySpaces);
    merged.keySpaces.putAll(over.keySpaces);
    return merged;
  }

  /** The file form, which {@link #read} reads back. */
  String toText() {
    StringBuilder out = new StringBuilder();
    keySpaces.forEach((name, type) -> out.append("keyspace ").append(name).append(' ').append(type).append('\n'));
    tables.forEach((table, d) -> out.append(table).append(' ').append(words(d)).append('\n'));
    return out.toString();
  }

  static String words(Hints.Declaration d) {
    StringBuilder w = new StringBuilder(d.kind().name().toLowerCase(Locale.ROOT));
    if (d.keyColumn() != null) {
      w.append(" key=").append(d.keyColumn());
    }
    if (d.keySpace() != null && !d.keySpace().equals("default")) {
      w.append(" keyspace=").append(d.keySpace());
    }
    if (d.shard() != null) {
      w.append(" shard=").append(d.shard());
    }
    for (Hints.LookupSpec l : d.lookups()) {
      w.append(" lookup=").append(l.column()).append(l.unique() ? " unique" : "");
    }
    return w.toString();
  }

  private static KeyType keyType(String word, String where, String line) throws SQLException {
    try {
      return KeyType.valueOf(word.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw bad(where, line, "a key space's type is BIGINT or STRING");
    }
  }

  private static SQLException bad(String where, String line, String why) {
    return dev.shardex.vocabulary.ShardexError.BAD_DECLARATION.exception("'" + line + "' (" + where + ")", why);
  }
}
