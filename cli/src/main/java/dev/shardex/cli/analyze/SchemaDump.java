package dev.shardex.cli.analyze;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The CREATE TABLE statements of a {@code mysqldump --no-data} file (or any schema script): a
 * statement ends at a line ending with the delimiter ({@code ;}, or what a {@code DELIMITER} line
 * sets, for the triggers and routines a dump may hold); {@code --} lines are comments. Everything
 * but CREATE TABLE (SET, DROP, views, routines) is left out. A CREATE TABLE keeps its leading
 * {@code /* shardex:... * /} comment and its {@code COMMENT='shardex:...'}: both declare the table.
 */
final class SchemaDump {
  private static final Pattern CREATE_TABLE = Pattern.compile(
      "^(?:/\\*\\s*shardex:[^*]*\\*/\\s*)*CREATE\\s+(?:TEMPORARY\\s+)?TABLE\\b", Pattern.CASE_INSENSITIVE);

  private SchemaDump() {}

  static List<String> createTables(Path file) throws IOException {
    List<String> tables = new ArrayList<>();
    String delimiter = ";";
    StringBuilder statement = new StringBuilder();
    for (String line : Files.readAllLines(file)) {
      String trimmed = line.strip();
      if (statement.length() == 0 && (trimmed.isEmpty() || trimmed.startsWith("--") || trimmed.startsWith("#"))) {
        continue;
      }
      if (statement.length() == 0 && trimmed.toUpperCase(Locale.ROOT).startsWith("DELIMITER ")) {
        delimiter = trimmed.substring("DELIMITER ".length()).strip();
        continue;
      }
      statement.append(line).append('\n');
      if (trimmed.endsWith(delimiter)) {
        String sql = statement.toString().strip();
        sql = sql.substring(0, sql.length() - delimiter.length()).strip();
        if (CREATE_TABLE.matcher(sql).find()) {
          tables.add(sql);
        }
        statement.setLength(0);
      }
    }
    return tables;
  }
}
