package dev.shardex.driver.sql;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Columns of a {@code JSON_TABLE} that carries rows read on other shards back to one shard, each
 * declared with its table column's own type and collation: the server there then compares,
 * de-duplicates and types the values as it does that column's (used by the push-back of a join's
 * rows and by a UNION's branches).
 */
public final class JsonTable {
  private static final Pattern TYPE = Pattern.compile(
      "(tinyint|smallint|mediumint|int|integer|bigint|decimal|numeric|float|double|date|datetime|timestamp|time|year"
          + "|char|varchar|tinytext|text|mediumtext|longtext)(\\([0-9, ]+\\))?( unsigned)?( zerofill)?( \\S+)?");

  private JsonTable() {}

  /**
   * The declaration of column {@code name} read from {@code $[path]} as {@code type} (as the catalog
   * prints it: "varchar(40) utf8mb4_general_ci"), or null for a type JSON_TABLE cannot carry
   * exactly (BLOB/BINARY, ENUM/SET, BIT, spatial, JSON) or an unknown one.
   */
  public static String column(String name, String type, int path) {
    Matcher m = type == null ? null : TYPE.matcher(type.toLowerCase(Locale.ROOT));
    if (m == null || !m.matches()) {
      return null;
    }
    String collation = m.group(5) == null ? "" : m.group(5).strip();
    String base = type.substring(0, type.length() - (m.group(5) == null ? 0 : m.group(5).length()));
    return name + " " + base + (collation.isEmpty() ? ""
        : " CHARACTER SET " + collation.substring(0, collation.indexOf('_')) + " COLLATE " + collation) + " PATH '$[" + path + "]'";
  }
}
