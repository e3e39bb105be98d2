package dev.shardex.driver.moves;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.move.FaultHook;
import dev.shardex.directory.move.MoveJournal;
import dev.shardex.directory.move.MoveOptions;
import dev.shardex.directory.move.MoveRecord;
import dev.shardex.directory.move.MoveStep;
import dev.shardex.directory.move.Mover;
import dev.shardex.directory.move.Progress;
import dev.shardex.directory.move.Verifier;
import dev.shardex.directory.placement.KeyState;
import dev.shardex.directory.placement.Placement;
import dev.shardex.driver.moves.MoveTestSupport.Tally;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Acceptance (issue 4, "concurrent-writer audit"): two driver instances, 8 writer threads inserting,
 * updating and deleting rows of 50 users through the real driver while at least 200 online moves
 * run among 4 shards, 4 at a time. Every write the driver acknowledged must be there exactly once,
 * with its last acknowledged value, on the shard the directory names; no row of a user may sit on
 * another shard; the Verifier must find no orphan.
 */
class ConcurrentWriterAuditTest {
  static final String NAME = "audit";
  static final int SHARDS = 4;
  static final String URL = "jdbc:shardex:sandbox:" + NAME + "?shards=" + SHARDS;
  static final int USERS = 50;
  static final long FIRST_USER = 1_001;
  static final int WRITERS = 8;
  static final int MOVES_WANTED = Integer.getInteger("audit.moves", 200);
  static final int MOVES_PARALLEL = 4;
  /** Pause between two writes of one writer thread: ~8 x 1/(pace + latency) writes per second. */
  static final long WRITER_PACE_MS = Long.getLong("audit.paceMs", 8);
  static final long MOVE_DEADLINE_MS = Long.getLong("audit.moveDeadlineMs", 180_000);

  /** What one writer expects of one row it wrote. Owned by its writer thread until the writers stop. */
  static final class Expect {
    final String table; // audit_rows (id) or audit_events (seq)
    final long id;
    final long user;
    /** The last acknowledged value (audit_rows.v; 0 for events), meaningful when present. */
    int value;
    /** Whether the row should exist: an acknowledged insert not followed by an acknowledged delete. */
    boolean present;
    /** Failed writes after the last acknowledged one: they must not have taken effect. */
    final List<String> failedAfter = new ArrayList<>();
    /** A commit that failed: its outcome is unknown, so either outcome is accepted. */
    boolean ambiguous;

    Expect(String table, long id, long user) {
      this.table = table;
      this.id = id;
      this.user = user;
    }

    String describe() {
      return table + " id=" + id + " user=" + user + (present ? " value=" + value : " absent")
          + (failedAfter.isEmpty() ? "" : " failedAfter=" + failedAfter);
    }
  }

  static final class Writer implements Runnable {
    final int index;
    final String instance;
    final AtomicBoolean stop;
    final List<Expect> rows = new ArrayList<>();
    final List<Expect> live = new ArrayList<>(); // audit_rows expected present: targets of updates and deletes
    final Tally failures;
    final Tally acks;
    final List<String> anomalies;
    final long[] latencyMicros = new long[400_000];
    int latencies;
    long nextId;
    int nextValue = 1;
    int zeroRowWrites;
    int staleReads;
    Throwable crashed;

    Writer(int index, String instance, AtomicBoolean stop, Tally failures, Tally acks, List<String> anomalies) {
      this.index = index;
      this.instance = instance;
      this.stop = stop;
      this.failures = failures;
      this.acks = acks;
      this.anomalies = anomalies;
      this.nextId = (index + 1) * 1_000_000_000L;
    }

    @Override
    public void run() {
      ThreadLocalRandom rnd = ThreadLocalRandom.current();
      try (Connection c = DriverManager.getConnection(URL + "&shardex.instance=" + instance);
          PreparedStatement insert = c.prepareStatement("INSERT INTO audit_rows (id, user_id, v) VALUES (?, ?, ?)");
          PreparedStatement update = c.prepareStatement("UPDATE audit_rows SET v = ? WHERE id = ? AND user_id = ?");
          PreparedStatement delete = c.prepareStatement("DELETE FROM audit_rows WHERE id = ? AND user_id = ?");
          PreparedStatement event = c.prepareStatement(
              "INSERT INTO audit_events (user_id, seq, note, at, amount) VALUES (?, ?, ?, NOW(6), ?)");
          PreparedStatement read = c.prepareStatement("SELECT v FROM audit_rows WHERE id = ? AND user_id = ?")) {
        while (!stop.get()) {
          int op = rnd.nextInt(100);
          if (op < 40 || live.isEmpty()) {
            insertRow(insert, FIRST_USER + rnd.nextInt(USERS));
          } else if (op < 75) {
            updateRow(update, read, live.get(rnd.nextInt(live.size())), rnd.nextInt(10) == 0);
          } else if (op < 82) {
            deleteRow(delete, live.remove(rnd.nextInt(live.size())));
          } else {
            transaction(c, insert, event, FIRST_USER + rnd.nextInt(USERS));
          }
          Thread.sleep(WRITER_PACE_MS);
        }
      } catch (Throwable t) {
        crashed = t;
      }
    }

    private void latency(long startNanos) {
      if (latencies < latencyMicros.length) {
        latencyMicros[latencies++] = (System.nanoTime() - startNanos) / 1_000;
      }
    }

    private void insertRow(PreparedStatement insert, long user) {
      Expect e = new Expect("audit_rows", nextId++, user);
      rows.add(e);
      int v = nextValue++;
      long t0 = System.nanoTime();
      try {
        insert.setLong(1, e.id);
        insert.setLong(2, user);
        insert.setInt(3, v);
        int n = insert.executeUpdate();
        latency(t0);
        acks.add("insert");
        e.present = true;
        e.value = v;
        live.add(e);
        if (n != 1) {
          zeroRowWrites++;
          anomalies.add("acknowledged INSERT reported " + n + " row(s): " + e.describe());
        }
      } catch (SQLException ex) {
        failures.add(MoveTestSupport.errorId(ex), ex);
        e.failedAfter.add("insert v=" + v + " (" + MoveTestSupport.errorId(ex) + ")");
      }
    }

    private void updateRow(PreparedStatement update, PreparedStatement read, Expect e, boolean readBack) {
      int v = nextValue++;
      long t0 = System.nanoTime();
      try {
        update.setInt(1, v);
        update.setLong(2, e.id);
        update.setLong(3, e.user);
        int n = update.executeUpdate();
        latency(t0);
        acks.add("update");
        if (n != 1) {
          // The row should be there: an acknowledged UPDATE that matched nothing went to a shard without it.
          zeroRowWrites++;
          anomalies.add("acknowledged UPDATE matched " + n + " row(s) (v " + e.value + " -> " + v + "): " + e.describe());
        }
        e.value = v;
        e.failedAfter.clear();
      } catch (SQLException ex) {
        failures.add(MoveTestSupport.errorId(ex), ex);
        e.failedAfter.add("update v=" + v + " (" + MoveTestSupport.errorId(ex) + ")");
        return;
      }
      if (readBack) {
        try {
          read.setLong(1, e.id);
          read.setLong(2, e.user);
          try (ResultSet rs = read.executeQuery()) {
            Integer got = rs.next() ? rs.getInt(1) : null;
            if (got == null || got != e.value) {
              staleReads++;
              anomalies.add("read-your-write: driver " + instance + " read " + got + " right after writing " + e.value
                  + " (" + e.describe() + ")");
            }
          }
        } catch (SQLException ex) {
          failures.add("read " + MoveTestSupport.errorId(ex), ex);
        }
      }
    }

    private void deleteRow(PreparedStatement delete, Expect e) {
      long t0 = System.nanoTime();
      try {
        delete.setLong(1, e.id);
        delete.setLong(2, e.user);
        int n = delete.executeUpdate();
        latency(t0);
        acks.add("delete");
        if (n != 1) {
          zeroRowWrites++;
          anomalies.add("acknowledged DELETE matched " + n + " row(s): " + e.describe());
        }
        e.present = false;
        e.failedAfter.clear();
      } catch (SQLException ex) {
        failures.add(MoveTestSupport.errorId(ex), ex);
        e.failedAfter.add("delete (" + MoveTestSupport.errorId(ex) + ")");
        live.add(e); // still there: it may be updated or deleted again
      }
    }

    /** One transaction: a row of audit_rows and an event of the same user (both tables of the key space). */
    private void transaction(Connection c, PreparedStatement insert, PreparedStatement event, long user) {
      Expect row = new Expect("audit_rows", nextId++, user);
      Expect ev = new Expect("audit_events", row.id, user);
      rows.add(row);
      rows.add(ev);
      int v = nextValue++;
      long t0 = System.nanoTime();
      boolean committing = false;
      try {
        c.setAutoCommit(false);
        insert.setLong(1, row.id);
        insert.setLong(2, user);
        insert.setInt(3, v);
        insert.executeUpdate();
        event.setLong(1, user);
        event.setLong(2, ev.id);
        event.setString(3, "n" + ev.id);
        event.setBigDecimal(4, java.math.BigDecimal.valueOf(row.id % 100_000, 2));
        event.executeUpdate();
        committing = true;
        c.commit();
        latency(t0);
        acks.add("transaction");
        row.present = true;
        row.value = v;
        ev.present = true;
        live.add(row);
      } catch (SQLException ex) {
        failures.add((committing ? "commit " : "tx ") + MoveTestSupport.errorId(ex), ex);
        row.failedAfter.add("tx insert v=" + v + " (" + MoveTestSupport.errorId(ex) + ")");
        ev.failedAfter.add("tx insert (" + MoveTestSupport.errorId(ex) + ")");
        row.ambiguous = committing;
        ev.ambiguous = committing;
        try {
          c.rollback();
        } catch (SQLException ignored) {
          // the connection is reset below
        }
      } finally {
        try {
          c.setAutoCommit(true);
        } catch (SQLException ex) {
          anomalies.add("setAutoCommit(true) failed: " + ex);
        }
      }
    }
  }

  record Found(int shard, long user, int value) {}

  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void everyAcknowledgedWriteSurvivesTwoHundredMovesExactlyOnceOnItsOwner() throws Exception {
    long wallStart = System.nanoTime();
    SandboxCluster sandbox = SandboxCluster.shared(NAME, SHARDS);
    try (Connection a = DriverManager.getConnection(URL + "&shardex.instance=a"); Statement s = a.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE audit_rows (id BIGINT PRIMARY KEY, "
          + "user_id BIGINT NOT NULL, v INT NOT NULL, KEY (user_id))");
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE audit_events (user_id BIGINT NOT NULL, seq BIGINT NOT NULL, "
          + "note VARCHAR(64), at DATETIME(6), amount DECIMAL(12,2), PRIMARY KEY (user_id, seq))");
    }
    // Every user gets a row (and so an owner) before the moves start.
    List<Expect> seeded = new ArrayList<>();
    try (Connection a = DriverManager.getConnection(URL + "&shardex.instance=a");
        PreparedStatement ps = a.prepareStatement("INSERT INTO audit_rows (id, user_id, v) VALUES (?, ?, ?)")) {
      for (int u = 0; u < USERS; u++) {
        Expect e = new Expect("audit_rows", u, FIRST_USER + u);
        ps.setLong(1, e.id);
        ps.setLong(2, e.user);
        ps.setInt(3, 7);
        assertEquals(1, ps.executeUpdate());
        e.present = true;
        e.value = 7;
        seeded.add(e);
      }
    }
    // Open driver b too (its instance registers as a client) before the moves start.
    DriverManager.getConnection(URL + "&shardex.instance=b").close();

    try (HikariDataSource pool = MoveTestSupport.directoryPool(sandbox, "audit-directory", 20)) {
      DirectoryStore store = MoveTestSupport.store(pool);
      Mover mover = new Mover(store, MoveTestSupport.connector(sandbox), MoveOptions.defaults(), FaultHook.NONE);
      // Verify once before anything moves: a baseline, and it loads every class the final audit needs
      // (other engineers re-install the directory jar while this runs).
      Verifier verifier = new Verifier(store, MoveTestSupport.connector(sandbox));
      Verifier.Report before = verifier.verify(false, Progress.NONE);
      assertTrue(before.orphans().isEmpty() && before.unowned().isEmpty(), "clean before the moves: " + before);
      assertTrue(new MoveJournal(store).list(true, 100).isEmpty(), "no unfinished move before the audit");

      AtomicBoolean stop = new AtomicBoolean();
      Tally writeFailures = new Tally();
      Tally writeAcks = new Tally();
      List<String> anomalies = Collections.synchronizedList(new ArrayList<>());
      List<Writer> writers = new ArrayList<>();
      ExecutorService writerPool = Executors.newFixedThreadPool(WRITERS);
      List<Future<?>> writerFutures = new ArrayList<>();
      for (int i = 0; i < WRITERS; i++) {
        Writer w = new Writer(i, i < WRITERS / 2 ? "a" : "b", stop, writeFailures, writeAcks, anomalies);
        writers.add(w);
        writerFutures.add(writerPool.submit(w));
      }
      Thread.sleep(500); // writers warm up (connections, templates) before the first move

      // ---- moves: MOVES_PARALLEL at a time, each on a key no other running move holds ----------------
      Tally moveOutcomes = new Tally();
      Map<String, String> moveFailureExamples = new java.util.concurrent.ConcurrentHashMap<>();
      AtomicInteger movesDone = new AtomicInteger();
      AtomicInteger movesStarted = new AtomicInteger();
      Set<Long> moving = new HashSet<>();
      ConcurrentLinkedQueue<Long> moveMillis = new ConcurrentLinkedQueue<>();
      ConcurrentLinkedQueue<String> slowMoves = new ConcurrentLinkedQueue<>();
      long moveStart = System.nanoTime();
      long moveDeadline = moveStart + TimeUnit.MILLISECONDS.toNanos(MOVE_DEADLINE_MS);
      ExecutorService movePool = Executors.newFixedThreadPool(MOVES_PARALLEL);
      List<Future<?>> moveFutures = new ArrayList<>();
      for (int m = 0; m < MOVES_PARALLEL; m++) {
        moveFutures.add(movePool.submit(() -> {
          ThreadLocalRandom rnd = ThreadLocalRandom.current();
          while (movesDone.get() < MOVES_WANTED && System.nanoTime() < moveDeadline
              && movesStarted.get() < MOVES_WANTED * 2) {
            long user;
            synchronized (moving) {
              do {
                user = FIRST_USER + rnd.nextInt(USERS);
              } while (moving.contains(user));
              moving.add(user);
            }
            try {
              String key = Long.toString(user);
              Placement p = store.lookup(KeySpace.DEFAULT, key);
              int to = (p.shardId() + 1 + rnd.nextInt(SHARDS - 1)) % SHARDS;
              movesStarted.incrementAndGet();
              long t0 = System.nanoTime();
              MoveRecord r = mover.move(KeySpace.DEFAULT, key, to);
              long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
              moveMillis.add(took);
              if (took > 2_000) {
                slowMoves.add("move " + r.id() + " of user " + key + " " + p.shardId() + " -> " + to + ": " + took + " ms");
              }
              moveOutcomes.add(r.step().name());
              if (r.step() == MoveStep.DONE) {
                movesDone.incrementAndGet();
              } else {
                moveFailureExamples.putIfAbsent(r.step().name(), "move " + r.id() + " of " + key + ": " + r.detail());
              }
            } catch (SQLException e) {
              String id = MoveTestSupport.errorId(e);
              moveOutcomes.add(id);
              moveFailureExamples.putIfAbsent(id, MoveTestSupport.firstLine(e));
            } finally {
              synchronized (moving) {
                moving.remove(user);
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : moveFutures) {
        f.get();
      }
      long moveWallMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - moveStart);
      movePool.shutdown();

      stop.set(true);
      for (Future<?> f : writerFutures) {
        f.get(60, TimeUnit.SECONDS);
      }
      writerPool.shutdown();
      for (Writer w : writers) {
        if (w.crashed != null) {
          throw new AssertionError("writer " + w.index + " crashed", w.crashed);
        }
      }

      // ---- the audit ----------------------------------------------------------------------------------
      List<String> problems = new ArrayList<>();
      Map<Long, Integer> owner = new HashMap<>();
      for (int u = 0; u < USERS; u++) {
        long user = FIRST_USER + u;
        Placement p = store.lookup(KeySpace.DEFAULT, Long.toString(user));
        if (p == null || p.state() != KeyState.ACTIVE) {
          problems.add("user " + user + " is " + p + " in the directory after the moves");
        }
        if (p != null) {
          owner.put(user, p.shardId());
        }
      }
      // Everything on every shard, straight from the shard.
      Map<Long, List<Found>> rowsFound = new HashMap<>();
      Map<Long, List<Found>> eventsFound = new HashMap<>();
      long[] rowsPerShard = new long[SHARDS];
      for (int shard = 0; shard < SHARDS; shard++) {
        try (Connection c = sandbox.connectShard(shard); Statement st = c.createStatement()) {
          try (ResultSet rs = st.executeQuery("SELECT id, user_id, v FROM audit_rows")) {
            while (rs.next()) {
              rowsPerShard[shard]++;
              rowsFound.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>()).add(new Found(shard, rs.getLong(2), rs.getInt(3)));
            }
          }
          try (ResultSet rs = st.executeQuery("SELECT seq, user_id, note FROM audit_events")) {
            while (rs.next()) {
              rowsPerShard[shard]++;
              if (!("n" + rs.getLong(1)).equals(rs.getString(3))) {
                problems.add("audit_events seq " + rs.getLong(1) + " on shard " + shard + " has note " + rs.getString(3));
              }
              eventsFound.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>()).add(new Found(shard, rs.getLong(2), 0));
            }
          }
        }
      }
      // No row of any user on a shard other than its owner's.
      for (Map<Long, List<Found>> found : List.of(rowsFound, eventsFound)) {
        String table = found == rowsFound ? "audit_rows" : "audit_events";
        found.forEach((id, copies) -> {
          for (Found f : copies) {
            Integer own = owner.get(f.user());
            if (own == null || own != f.shard()) {
              problems.add(table + " id " + id + " of user " + f.user() + " sits on shard " + f.shard()
                  + " but the directory places the user on shard " + own);
            }
          }
        });
      }
      // Every row any writer touched: exactly as acknowledged.
      List<Expect> all = new ArrayList<>(seeded);
      writers.forEach(w -> all.addAll(w.rows));
      Set<Long> expectedRowIds = new HashSet<>();
      Set<Long> expectedEventIds = new HashSet<>();
      int acknowledgedRows = 0;
      int failedApplied = 0;
      for (Expect e : all) {
        Map<Long, List<Found>> found = e.table.equals("audit_rows") ? rowsFound : eventsFound;
        (e.table.equals("audit_rows") ? expectedRowIds : expectedEventIds).add(e.id);
        List<Found> copies = found.getOrDefault(e.id, List.of());
        if (e.ambiguous && !e.present) {
          if (copies.size() > 1) {
            problems.add("DUPLICATED (" + copies + "): " + e.describe() + " [commit outcome unknown]");
          }
          continue;
        }
        if (e.present) {
          acknowledgedRows++;
          if (copies.isEmpty()) {
            problems.add("LOST: " + e.describe());
          } else if (copies.size() > 1) {
            problems.add("DUPLICATED " + copies + ": " + e.describe());
          } else {
            Found f = copies.get(0);
            if (!Integer.valueOf(f.shard()).equals(owner.get(e.user))) {
              problems.add("WRONG SHARD " + f.shard() + " (owner " + owner.get(e.user) + "): " + e.describe());
            }
            if (e.table.equals("audit_rows") && f.value() != e.value) {
              boolean fromFailed = e.failedAfter.stream().anyMatch(x -> x.contains("v=" + f.value() + " "));
              if (fromFailed) {
                failedApplied++;
              }
              problems.add((fromFailed ? "FAILED WRITE APPLIED" : "WRONG VALUE") + " " + f.value() + ": " + e.describe());
            }
          }
        } else if (!copies.isEmpty()) {
          failedApplied += e.failedAfter.isEmpty() ? 0 : 1;
          problems.add((e.failedAfter.stream().anyMatch(x -> x.startsWith("delete")) ? "FAILED DELETE APPLIED?"
              : e.failedAfter.isEmpty() ? "RESURRECTED" : "FAILED INSERT APPLIED") + " " + copies + ": " + e.describe());
        }
      }
      for (Long id : rowsFound.keySet()) {
        if (!expectedRowIds.contains(id)) {
          problems.add("audit_rows id " + id + " was never written by the test: " + rowsFound.get(id));
        }
      }
      for (Long id : eventsFound.keySet()) {
        if (!expectedEventIds.contains(id)) {
          problems.add("audit_events seq " + id + " was never written by the test: " + eventsFound.get(id));
        }
      }
      // Both drivers read every user's rows where they are.
      for (String instance : List.of("a", "b")) {
        try (Connection c = DriverManager.getConnection(URL + "&shardex.instance=" + instance);
            PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM audit_rows WHERE user_id = ?")) {
          for (int u = 0; u < USERS; u++) {
            long user = FIRST_USER + u;
            long want = all.stream().filter(e -> e.present && e.user == user && e.table.equals("audit_rows")).count();
            ps.setLong(1, user);
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              if (rs.getLong(1) != want) {
                problems.add("driver " + instance + " counts " + rs.getLong(1) + " rows of user " + user + ", expected " + want);
              }
            }
          }
        }
      }
      Verifier.Report report = verifier.verify(false, Progress.NONE);
      List<MoveRecord> unfinished = new MoveJournal(store).list(true, 100);

      // ---- summary --------------------------------------------------------------------------------------
      long wallMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - wallStart);
      long[] latency = writers.stream().flatMapToLong(w -> java.util.Arrays.stream(w.latencyMicros, 0, w.latencies)).toArray();
      long[] moveMs = moveMillis.stream().mapToLong(Long::longValue).sorted().toArray();
      int zeroRow = writers.stream().mapToInt(w -> w.zeroRowWrites).sum();
      int stale = writers.stream().mapToInt(w -> w.staleReads).sum();
      StringBuilder out = new StringBuilder("\n==== Concurrent-writer audit ====\n");
      out.append(String.format("writers: %d threads on 2 driver instances, %d users, pace %d ms%n", WRITERS, USERS, WRITER_PACE_MS));
      out.append(String.format("writes acknowledged: %d %s%n", writeAcks.total(), writeAcks));
      out.append(String.format("writes failed: %d %s%n", writeFailures.total(), writeFailures));
      writeFailures.examples().forEach((k, v) -> out.append("  e.g. ").append(k).append(": ").append(v).append('\n'));
      out.append(String.format("acknowledged write latency: %s%n", MoveTestSupport.latencySummary(latency)));
      out.append(String.format("moves: %d done of %d started in %d ms (%d at a time); outcomes %s%n", movesDone.get(),
          movesStarted.get(), moveWallMs, MOVES_PARALLEL, moveOutcomes));
      moveFailureExamples.forEach((k, v) -> out.append("  e.g. ").append(k).append(": ").append(v).append('\n'));
      out.append(String.format("move duration: p50=%d ms p99=%d ms max=%d ms%n", MoveTestSupport.percentile(moveMs, 50),
          MoveTestSupport.percentile(moveMs, 99), moveMs.length == 0 ? 0 : moveMs[moveMs.length - 1]));
      slowMoves.stream().limit(10).forEach(m -> out.append("  slow: ").append(m).append('\n'));
      out.append(String.format("rows expected present: %d; rows on shards 0..%d: %s%n", acknowledgedRows, SHARDS - 1,
          java.util.Arrays.toString(rowsPerShard)));
      out.append(String.format("acknowledged writes that matched 0 rows: %d; read-your-write misses: %d; failed writes applied: %d%n",
          zeroRow, stale, failedApplied));
      out.append(String.format("verify: %d orphan(s), %d unowned, %d GLOBAL diff(s); unfinished moves: %d%n",
          report.orphans().size(), report.unowned().size(), report.globals().size(), unfinished.size()));
      out.append(String.format("problems: %d; wall time %d ms%n", problems.size(), wallMs));
      problems.stream().limit(40).forEach(p -> out.append("  PROBLEM ").append(p).append('\n'));
      synchronized (anomalies) {
        anomalies.stream().limit(20).forEach(p -> out.append("  ANOMALY ").append(p).append('\n'));
      }
      report.orphans().stream().limit(10).forEach(f -> out.append("  ORPHAN ").append(f).append('\n'));
      unfinished.stream().limit(10).forEach(m -> out.append("  UNFINISHED ").append(m).append('\n'));
      System.out.println(out);

      assertTrue(movesDone.get() >= MOVES_WANTED, "at least " + MOVES_WANTED + " moves done: " + out);
      assertTrue(problems.isEmpty(), problems.size() + " problem(s): " + out);
      assertEquals(0, zeroRow, "acknowledged writes that matched no row: " + out);
      assertEquals(0, report.orphans().size(), "orphans: " + out);
      assertEquals(0, report.unowned().size(), "unowned: " + out);
      assertTrue(unfinished.isEmpty(), "unfinished moves: " + out);
      assertTrue(writeAcks.total() > 1_000, "the writers wrote: " + out);
    }
  }
}
