package dev.shardex.sandbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;

/** Plain Connector/J access to one sandbox server: URLs, connections and the initial setup. */
final class Jdbc {

    private static final List<String> USER_HOSTS = List.of("%", "localhost", "127.0.0.1");

    private Jdbc() {}

    static String url(int port, String database) {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + database;
    }

    /**
     * Uses Connector/J's driver directly rather than DriverManager, so a connection is always a
     * real MySQL protocol connection, whatever other drivers (like shardex's own) are registered.
     */
    static Connection connect(String url, String user, String password) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        // A stopped server refuses at once; the timeout only matters for a hung one.
        properties.setProperty("connectTimeout", "10000");
        properties.setProperty("sslMode", "DISABLED");
        properties.setProperty("allowPublicKeyRetrieval", "true");
        Connection connection = new com.mysql.cj.jdbc.Driver().connect(url, properties);
        if (connection == null) {
            throw new SQLException("Connector/J does not accept the URL " + url);
        }
        return connection;
    }

    /**
     * Creates {@code database} and the application user on a freshly installed server, connecting
     * as root (no password in the template). Idempotent, so it is harmless on a restart.
     */
    static void provision(MariaDbServer server, String database, String user, String password) {
        try (Connection connection = connect(url(server.port(), ""), "root", "");
                Statement statement = connection.createStatement()) {
            for (String host : USER_HOSTS) {
                // Several host entries: with --skip-name-resolve, which one a client matches
                // depends on whether it comes in as 127.0.0.1 or via the socket ('localhost').
                String account = quote(user) + "@" + quote(host);
                statement.execute("CREATE USER IF NOT EXISTS " + account + " IDENTIFIED BY " + quote(password));
                // XA recovery and moving data between shards need server-wide rights.
                statement.execute("GRANT ALL PRIVILEGES ON *.* TO " + account + " WITH GRANT OPTION");
            }
            statement.execute("CREATE DATABASE IF NOT EXISTS `" + database.replace("`", "``")
                    + "` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci");
        } catch (SQLException e) {
            // The message never contains the password: Connector/J does not echo statements.
            throw new SandboxException("Cannot create database " + database + " and user " + user
                    + " on MariaDB " + server.label() + " server (port " + server.port() + ", data dir "
                    + server.dataDir() + "): " + e.getMessage(), e);
        }
    }

    private static String quote(String literal) {
        return "'" + literal.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
