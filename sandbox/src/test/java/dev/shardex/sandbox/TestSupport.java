package dev.shardex.sandbox;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

final class TestSupport {

    private static final Pattern PORT = Pattern.compile("jdbc:mysql://[^:/]+:(\\d+)/.*");

    private TestSupport() {}

    static int port(String jdbcUrl) {
        Matcher matcher = PORT.matcher(jdbcUrl);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("No port in " + jdbcUrl);
        }
        return Integer.parseInt(matcher.group(1));
    }

    /** The first column of the first row, as a string. */
    static String scalar(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            if (!rows.next()) {
                throw new AssertionError("No row from " + sql);
            }
            return rows.getString(1);
        }
    }
}
