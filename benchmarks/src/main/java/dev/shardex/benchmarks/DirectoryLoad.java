package dev.shardex.benchmarks;

import dev.shardex.directory.Directory;
import dev.shardex.directory.DirectoryOptions;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.move.MoveOptions;
import dev.shardex.directory.move.Mover;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.TableDef;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The directory's load from many application nodes (issue 24): {@code dirload.nodes} (100) real
 * directory clients in this JVM, each polling the change log and heartbeating (renewing its lease)
 * with the driver's own code ({@code Directory} with its poller, over one shared pool), measured at
 * the directory server: statements per second (its {@code Questions} counter) and the CPU of its
 * mariadbd process (/proc). Three phases of {@code dirload.seconds} (20) each: quiet (polls every
 * 100 ms), during moves (one move at a time, back to back: clients that know a move is under way poll
 * every 5 ms), and quiet again with {@code shardex.pollMs=1000}. Last, one node's heap per cached
 * key, measured on a 1,000,000-key cache ({@link CacheMemory}). The nodes' query traffic does not
 * depend on how many keys each caches: a cache hit sends nothing to the directory.
 * <pre>
 * mvn -o -q -DskipTests -Pbench -pl benchmarks -am verify -Dbench.skipJmh=true \
 *     -Dbench.main=dev.shardex.benchmarks.DirectoryLoad
 * </pre>
 */
public final class DirectoryLoad {
  private DirectoryLoad() {}

  public static void main(String[] args) throws Exception {
    int nodes = Integer.getInteger("dirload.nodes", 100);
    long seconds = Long.getLong("dirload.seconds", 20);
    SandboxCluster sandbox = SandboxCluster.shared("dirload", 2);
    try (var pool = ScaleMemory.pool(sandbox, 24)) {
      DirectoryStore store = new DirectoryStore(pool);
      seedMovers(sandbox, store);
      long pid = directoryPid(sandbox);
      System.out.printf("%d nodes, one JVM, %d-connection pool; directory mariadbd pid %d%n", nodes, 24, pid);
      phase("quiet, pollMs 100", store, nodes, DirectoryOptions.defaults(), seconds, pid, null);
      phase("moves under way, pollMs 100 (5 ms while a move runs)", store, nodes, DirectoryOptions.defaults(), seconds, pid,
          new Mover(store, sandbox::connectShard, MoveOptions.defaults(), null));
      phase("quiet, pollMs 1000", store, nodes, withPoll(DirectoryOptions.defaults(), 1_000), seconds, pid, null);
      CacheMemory.Result memory = CacheMemory.measure(store, 1_000_000, 1L << 45);
      System.out.printf("one node's key cache: %.1f bytes per cached key (%d keys, %.0f MB)%n", memory.bytesPerEntry(),
          memory.entries(), memory.heapDeltaBytes() / 1e6);
    } finally {
      sandbox.close();
    }
  }

  static DirectoryOptions withPoll(DirectoryOptions o, long pollMs) {
    return new DirectoryOptions(pollMs, Math.max(o.leaseMs(), 3 * pollMs), o.frozenWaitMs(), o.cacheSize(), o.ticker(), true);
  }

  /** Opens the nodes, lets them settle, then measures {@code seconds} of their traffic at the directory. */
  static void phase(String name, DirectoryStore store, int nodes, DirectoryOptions options, long seconds, long pid, Mover mover)
      throws Exception {
    List<Directory> open = new ArrayList<>();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger moves = new AtomicInteger();
    Thread moving = null;
    try {
      for (int i = 0; i < nodes; i++) {
        open.add(Directory.open(store, options, "node-" + i));
      }
      Thread.sleep(2_000);
      if (mover != null) {
        moving = new Thread(() -> moveBackAndForth(store, mover, stop, moves), "dirload-mover");
        moving.start();
        Thread.sleep(1_000);
      }
      long q0 = questions(store);
      long cpu0 = processCpuTicks(pid);
      long jvm0 = jvmCpuNanos();
      long moves0 = moves.get();
      long t0 = System.nanoTime();
      Thread.sleep(seconds * 1_000);
      double secs = (System.nanoTime() - t0) / 1e9;
      long q = questions(store) - q0;
      double cpu = (processCpuTicks(pid) - cpu0) / 100.0; // USER_HZ
      double jvm = (jvmCpuNanos() - jvm0) / 1e9;
      System.out.printf("%s: %,.0f statements/s at the directory (%.1f per node per second), directory CPU %.2f cores "
          + "(%.1f us per statement); this JVM (the %d nodes' pollers%s) %.2f cores%s%n", name, q / secs, q / secs / nodes,
          cpu / secs, cpu / q * 1e6, nodes, mover == null ? "" : " and the mover", jvm / secs,
          mover == null ? "" : String.format("; %d move(s) done in the window", moves.get() - moves0));
    } finally {
      stop.set(true);
      if (moving != null) {
        moving.join(60_000);
      }
      for (Directory d : open) {
        d.close();
      }
    }
  }

  /** Moves the seeded users from one shard to the other, one at a time, until told to stop. */
  private static void moveBackAndForth(DirectoryStore store, Mover mover, AtomicBoolean stop, AtomicInteger moves) {
    for (int i = 0; !stop.get(); i++) {
      long user = 1L + i % 20;
      try {
        int at = store.lookup(KeySpace.DEFAULT, Long.toString(user)).shardId();
        mover.move(KeySpace.DEFAULT, Long.toString(user), 1 - at);
        moves.incrementAndGet();
      } catch (SQLException e) {
        System.out.println("move of user " + user + " failed: " + e.getMessage());
      }
    }
  }

  /** 20 users of 10 rows on shard 0, for the mover. */
  private static void seedMovers(SandboxCluster sandbox, DirectoryStore store) throws SQLException {
    store.init();
    for (int shard = 0; shard < 2; shard++) {
      store.addShard(shard, sandbox.shardUrl(shard), 1.0);
    }
    store.addKeySpace(new KeySpace(KeySpace.DEFAULT, dev.shardex.vocabulary.KeyType.BIGINT, KeySpace.LEAST_LOADED));
    for (int shard = 0; shard < 2; shard++) {
      try (Connection c = sandbox.connectShard(shard); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE IF NOT EXISTS dl_rows (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL, v INT, KEY (user_id))");
      }
    }
    store.declareTable(TableDef.sharded("dl_rows", KeySpace.DEFAULT, "user_id"));
    try (Connection c = sandbox.connectShard(0); Statement s = c.createStatement()) {
      for (int user = 1; user <= 20; user++) {
        store.assign(KeySpace.DEFAULT, Integer.toString(user), 0);
        s.execute("INSERT INTO dl_rows SELECT " + user + " * 100 + seq, " + user + ", 0 FROM seq_1_to_10");
      }
    }
  }

  private static long questions(DirectoryStore store) throws SQLException {
    try (Connection c = store.dataSource().getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Questions'")) {
      rs.next();
      return rs.getLong(2);
    }
  }

  /** The mariadbd process serving the sandbox's directory (its data directory is on its command line). */
  static long directoryPid(SandboxCluster sandbox) throws Exception {
    String port = "--port=" + sandbox.directoryUrl().replaceAll(".*:(\\d+)/.*", "$1");
    try (var procs = Files.list(Path.of("/proc"))) {
      for (Path p : (Iterable<Path>) procs::iterator) {
        if (p.getFileName().toString().matches("\\d+") && Files.isReadable(p.resolve("cmdline"))) {
          String cmd = new String(Files.readAllBytes(p.resolve("cmdline")), java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ');
          if (cmd.contains("mariadbd") && (cmd.contains(port + " ") || cmd.endsWith(port))) {
            return Long.parseLong(p.getFileName().toString());
          }
        }
      }
    }
    throw new IllegalStateException("no mariadbd with " + port + " in /proc");
  }

  /** utime + stime of a process, in clock ticks (1/100 s). */
  static long processCpuTicks(long pid) throws Exception {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  private static long jvmCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }
}
