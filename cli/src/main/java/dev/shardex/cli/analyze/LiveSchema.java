package dev.shardex.cli.analyze;

import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The CREATE TABLE statements of a live source database, as {@code SHOW CREATE TABLE} prints them
 * (with any {@code COMMENT='shardex:...'}): the tables of the URL's database, views left out.
 * Only reads.
 */
final class LiveSchema {
  private LiveSchema() {}

  static List<String> createTables(String url, Properties credentials) throws SQLException {
    List<String> tables = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url, credentials); Statement s = c.createStatement()) {
      if (c.getCatalog() == null) {
        throw ShardexError.ANALYZE_NO_DATABASE.exception(dev.shardex.directory.Redact.url(url));
      }
      List<String> names = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SHOW FULL TABLES WHERE Table_type = 'BASE TABLE'")) {
        while (rs.next()) {
          names.add(rs.getString(1));
        }
      }
      for (String name : names) {
        try (ResultSet rs = s.executeQuery("SHOW CREATE TABLE `" + name.replace("`", "``") + "`")) {
          if (rs.next()) {
            tables.add(rs.getString(2));
          }
        }
      }
    }
    return tables;
  }
}
