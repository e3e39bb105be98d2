package dev.shardex.cli;

import static dev.shardex.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.cli.CliRunner.Result;
import dev.shardex.cli.LookupCrashState.Entry;
import dev.shardex.cli.LookupCrashState.Row;
import dev.shardex.directory.move.TestCluster;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A driver JVM dies at each step of the lookup write protocol (README "Lookup indexes", "Crash
 * between steps"), for real: a child JVM ({@link LookupCrashChild}) writes {@code lc_pets}
 * (lookups {@code id} unique and {@code tag} not) on the 3-shard clitest sandbox, which this JVM
 * runs, and halts at a named point of the driver (its crash-point property) or is killed with
 * SIGKILL in a write loop. Then this JVM checks what a user would: the rows on the shards, every
 * row's entries naming its key (no missing entry: reads by id and by tag find every row), extra
 * entries only for rows that are gone, {@code shardex lookups verify} listing exactly those (exit
 * code 2), {@code --repair} deleting them, a clean second verify and {@code shardex verify}, and a
 * re-insert of each repaired value.
 */
class LookupCrashTest {
  private static final String HALT_AT = "dev.shardex.internal.crashtest.haltAtLookupStep";
  private static final int HALTED = 86;
  private static final int KILLED = 128 + 9;
  /** The crashed multi-row INSERT: pets 101-103 of owners 2, 3 and 4, on at least two shards. */
  private static final long[] STATEMENT = {101, 102, 103};

  private Connection app;
  private TreeMap<Long, Row> seed;

  @BeforeEach
  void createAndSeed(TestInfo test) throws Exception {
    TestCluster.fresh();
    app = DriverManager.getConnection(driverUrl() + "?shardex.instance=lc-" + test.getTestMethod().orElseThrow().getName(), login());
    try (Statement s = app.createStatement()) {
      s.execute("CREATE TABLE lc_pets (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL, tag VARCHAR(40) NOT NULL)"
          + " COMMENT='shardex:sharded key=owner_id lookup=id unique lookup=tag'");
    }
    LookupCrashChild.insert(app, ids(1, 30));
    LookupCrashState state = LookupCrashState.read();
    seed = state.rows();
    assertEquals(30, seed.size());
    assertEquals(Set.of(), state.missing());
    assertEquals(Set.of(), state.extras());
  }

  @AfterEach
  void close() throws SQLException {
    app.close();
    dev.shardex.driver.ShardexDriver.shutdown(); // the next test's fresh directory is not this instance's
  }

  /** The claim commits the entries before the rows are written, so a crash in between leaves them extra. */
  @Test
  void insert_haltedAfterTheClaimBeforeTheShardWrite_leavesOnlyExtraEntries() throws Exception {
    assertTrue(shardsOf(2, 3, 4) > 1, "the statement writes on several shards");
    crash(HALTED, "CLAIMED", "insert", STATEMENT);
    assertCheckedAndRepaired(seed, gone(pets(STATEMENT), seed.values()));
  }

  /**
   * The crashed claim's value lock went with its connection: another driver inserts the id at once
   * (for another owner), re-pointing the orphan entry, with no repair first.
   */
  @Test
  void insert_haltedAfterTheClaim_leavesTheValueFreeForTheNextWriter() throws Exception {
    crash(HALTED, "CLAIMED", "insert", 104);
    long owner = 1 + LookupCrashChild.owner(104) % 5;
    try (PreparedStatement insert = app.prepareStatement("INSERT INTO lc_pets (id, owner_id, tag) VALUES (104, ?, 'again')")) {
      insert.setLong(1, owner);
      assertEquals(1, insert.executeUpdate());
    }
    TreeMap<Long, Row> after = new TreeMap<>(seed);
    after.put(104L, new Row(104, owner, "again"));
    Set<Entry> extras = gone(pets(104), after.values());
    assertTrue(extras.removeIf(e -> e.column().equals("id")), "the crashed claim's id entry, re-pointed by the insert");
    assertCheckedAndRepaired(after, extras);
  }

  /** Rows over several shards are held uncommitted until all are written: a crash rolls them back. */
  @Test
  void insert_haltedAfterTheShardWritesBeforeTheyCommit_leavesOnlyExtraEntries() throws Exception {
    crash(HALTED, "WRITTEN", "insert", STATEMENT);
    assertCheckedAndRepaired(seed, gone(pets(STATEMENT), seed.values()));
  }

  /** One row is committed by its own write: a crash after it leaves the row with its entries. */
  @Test
  void insertOfOneRow_haltedAfterTheShardWrite_leavesTheRowAndItsEntries() throws Exception {
    crash(HALTED, "WRITTEN", "insert", 104);
    TreeMap<Long, Row> after = new TreeMap<>(seed);
    after.put(104L, pets(104).get(0));
    assertCheckedAndRepaired(after, Set.of());
  }

  /**
   * Rows committed, value locks not released when the driver dies: nothing is extra, and the locks
   * went with the connection, so another driver's insert of one of the ids gets its 1062 at once.
   */
  @Test
  void insert_haltedBeforeItsLocksAreReleased_leavesTheRowsAndTheirEntries() throws Exception {
    crash(HALTED, "UNLOCKING", "insert", STATEMENT);
    TreeMap<Long, Row> after = new TreeMap<>(seed);
    pets(STATEMENT).forEach(r -> after.put(r.id(), r));
    try (Statement s = app.createStatement()) {
      SQLException e = org.junit.jupiter.api.Assertions.assertThrows(java.sql.SQLIntegrityConstraintViolationException.class,
          () -> s.executeUpdate("INSERT INTO lc_pets (id, owner_id, tag) VALUES (101, " + (1 + LookupCrashChild.owner(101) % 5)
              + ", 'again')"));
      assertEquals(1062, e.getErrorCode(), e.getMessage());
    }
    assertCheckedAndRepaired(after, Set.of());
  }

  @Test
  void insertInATransaction_haltedBeforeTheCommit_leavesOnlyExtraEntries() throws Exception {
    crash(LookupCrashChild.SELF_HALTED, null, "txinsert", STATEMENT);
    assertCheckedAndRepaired(seed, gone(pets(STATEMENT), seed.values()));
  }

  @Test
  void delete_haltedAfterItCommittedBeforeItsEntriesAreReleased_leavesOnlyExtraEntries() throws Exception {
    crash(HALTED, "RELEASING", "delete", 1, 2);
    TreeMap<Long, Row> after = new TreeMap<>(seed);
    after.keySet().removeAll(List.of(1L, 2L));
    assertCheckedAndRepaired(after, gone(seed.values(), after.values()));
  }

  @Test
  void update_haltedAfterTheShardWriteBeforeTheClaimCommits_changesNothing() throws Exception {
    crash(HALTED, "WRITTEN", "update", 3, 203);
    assertCheckedAndRepaired(seed, Set.of());
  }

  @Test
  void update_haltedAfterTheClaimCommittedBeforeTheRowsDid_leavesOnlyExtraEntries() throws Exception {
    crash(HALTED, "CLAIM_COMMITTED", "update", 6, 206);
    Row updated = new Row(206, LookupCrashChild.owner(6), LookupCrashChild.updatedTag(6));
    assertCheckedAndRepaired(seed, gone(List.of(updated), seed.values()));
  }

  @Test
  void updateInATransaction_haltedAfterItsClaimBeforeTheCommit_leavesOnlyExtraEntries() throws Exception {
    crash(LookupCrashChild.SELF_HALTED, null, "txupdate", 4, 204);
    Row updated = new Row(204, LookupCrashChild.owner(4), LookupCrashChild.updatedTag(4));
    assertCheckedAndRepaired(seed, gone(List.of(updated), seed.values()));
  }

  @Test
  void update_haltedAfterItCommittedBeforeTheOldEntriesAreReleased_leavesOnlyExtraEntries() throws Exception {
    crash(HALTED, "RELEASING", "update", 5, 205);
    TreeMap<Long, Row> after = new TreeMap<>(seed);
    after.remove(5L);
    after.put(205L, new Row(205, LookupCrashChild.owner(5), LookupCrashChild.updatedTag(5)));
    assertCheckedAndRepaired(after, gone(seed.values(), after.values()));
  }

  @Test
  void killedAtRandomMomentsUnderAWriteLoop_neverLosesAnEntry() throws Exception {
    long seedOfRandom = System.nanoTime();
    Random random = new Random(seedOfRandom);
    for (int run = 1; run <= 5; run++) {
      long base = 1_000_000L * run;
      Process child = start(null, "loop", base);
      int delayMs = random.nextInt(400);
      try {
        String said = waitForRunning(child);
        assertTrue(said.endsWith("running\n"), "the loop child started (random seed " + seedOfRandom + "): " + said);
        Thread.sleep(delayMs);
      } finally {
        child.destroyForcibly(); // SIGKILL
      }
      assertTrue(child.waitFor(60, TimeUnit.SECONDS));
      assertEquals(KILLED, child.exitValue(), "killed by SIGKILL, not ended on its own");
      LookupCrashState state = LookupCrashState.read();
      for (Entry e : state.extras()) {
        long id = e.column().equals("id") ? Long.parseLong(e.v()) : -1;
        assertTrue(e.column().equals("tag") || id >= base && id < base + 200_000, "an extra entry of this run's pets: " + e);
      }
      System.out.printf("kill %d after %d ms: %d pets, %d extra entries%n", run, delayMs,
          state.rows().keySet().stream().filter(id -> id >= base).count(), state.extras().size());
      assertCheckedAndRepaired(state.rows(), state.extras());
    }
  }

  // ---- what a user checks ------------------------------------------------------------------------

  /**
   * The rows on the shards are {@code rows}; every row has its entries; the extra entries are
   * {@code extras}; reads find every row; verify lists the extras, repair deletes them, verify is
   * then clean; each repaired id (or, with none, each id of the crashed statement) can be inserted.
   */
  private void assertCheckedAndRepaired(TreeMap<Long, Row> rows, Set<Entry> extras, long... free) throws Exception {
    LookupCrashState state = LookupCrashState.read();
    assertEquals(rows, state.rows(), "the rows on the shards");
    assertEquals(Set.of(), state.missing(), "rows without their entry");
    assertEquals(sorted(extras), sorted(state.extras()), "extra entries");
    assertReadsFind(rows);
    Result whole = run("verify");
    assertEquals(extras.isEmpty() ? 0 : 2, whole.code(), whole.toString());
    for (String column : List.of("id", "tag")) {
      long n = extras.stream().filter(e -> e.column().equals(column)).count();
      assertTrue(n == 0 || whole.out().contains("lookup lc_pets." + column + ": 0 missing, " + n + " extra, 0 duplicate entries;"
          + " run 'shardex lookups verify lc_pets " + column + " --repair'"), whole.toString());
      assertVerifyListsThenRepairs(column, extras);
    }
    Result after = run("verify");
    assertEquals(0, after.code(), after.toString());
    assertTrue(after.out().contains("0 of 2 lookup(s) with missing, extra or duplicate entries: OK"), after.toString());
    assertEquals(Set.of(), LookupCrashState.read().extras(), "extra entries after the repair");
    assertReinserts(extras, free);
  }

  private static void assertVerifyListsThenRepairs(String column, Set<Entry> extras) {
    Set<String> listed = extras.stream().filter(e -> e.column().equals(column))
        .map(e -> "extra entry '" + e.v() + "' -> key " + e.k()).collect(Collectors.toCollection(TreeSet::new));
    Result found = run("lookups", "verify", "lc_pets", column);
    assertEquals(listed.isEmpty() ? 0 : 2, found.code(), found.toString());
    assertEquals(listed, findings(found.out(), "extra entry"), found.toString());
    assertEquals(Set.of(), findings(found.out(), "missing entry"), found.toString());
    assertTrue(found.out().contains("lookup lc_pets." + column + ": 0 missing, " + listed.size() + " extra, 0 duplicate entries"),
        found.toString());
    Result repaired = run("lookups", "verify", "lc_pets", column, "--repair");
    assertEquals(0, repaired.code(), repaired.toString());
    assertEquals(listed.size(), findings(repaired.out(), "extra entry").size(), repaired.toString());
    Result again = run("lookups", "verify", "lc_pets", column);
    assertEquals(0, again.code(), again.toString());
    assertTrue(again.out().contains("lookup lc_pets." + column + ": 0 missing, 0 extra, 0 duplicate entries: OK"), again.toString());
  }

  /** The listed findings of a kind, up to the colon that starts their detail. */
  static Set<String> findings(String out, String kind) {
    Set<String> found = new TreeSet<>();
    Matcher m = Pattern.compile("(?m)^(" + kind + " '[^']*' -> key \\S+):").matcher(out);
    while (m.find()) {
      found.add(m.group(1));
    }
    return found;
  }

  /** Through the driver: each row by its id, each tag's rows by the tag. */
  private void assertReadsFind(TreeMap<Long, Row> rows) throws SQLException {
    try (PreparedStatement byId = app.prepareStatement("SELECT owner_id, tag FROM lc_pets WHERE id = ?");
        PreparedStatement byTag = app.prepareStatement("SELECT COUNT(*) FROM lc_pets WHERE tag = ?")) {
      for (Row r : rows.values()) {
        byId.setLong(1, r.id());
        assertEquals(List.of(r.owner() + "|" + r.tag()), rowsOf(byId), "pet " + r.id() + " read by its id");
      }
      for (String tag : rows.values().stream().map(Row::tag).collect(Collectors.toSet())) {
        byTag.setString(1, tag);
        assertEquals(List.of(Long.toString(rows.values().stream().filter(r -> r.tag().equals(tag)).count())), rowsOf(byTag), tag);
      }
    }
  }

  /** Each repaired id, and each id of {@code free}, can be inserted: for another owner, read back by id. */
  private void assertReinserts(Set<Entry> extras, long... free) throws SQLException {
    Set<Long> ids = new TreeSet<>();
    extras.stream().filter(e -> e.column().equals("id")).forEach(e -> ids.add(Long.parseLong(e.v())));
    Arrays.stream(free).forEach(ids::add);
    try (PreparedStatement insert = app.prepareStatement("INSERT INTO lc_pets (id, owner_id, tag) VALUES (?, ?, 'again')");
        PreparedStatement byId = app.prepareStatement("SELECT owner_id FROM lc_pets WHERE id = ?")) {
      for (long id : ids) {
        long owner = 1 + (LookupCrashChild.owner(id) % 5); // another owner than the crashed write's
        insert.setLong(1, id);
        insert.setLong(2, owner);
        assertEquals(1, insert.executeUpdate(), "re-insert of " + id);
        byId.setLong(1, id);
        assertEquals(List.of(Long.toString(owner)), rowsOf(byId), "pet " + id + " read by its id after the re-insert");
      }
    }
    assertEquals(Set.of(), LookupCrashState.read().missing(), "rows without their entry after the re-inserts");
  }

  // ---- the child JVM ---------------------------------------------------------------------------------

  private static void crash(int exitCode, String point, String scenario, long... args) throws Exception {
    Process child = start(point, scenario, args);
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(120, TimeUnit.SECONDS), "child ended");
    assertEquals(exitCode, child.exitValue(), "the child halted where it was told to: " + out);
  }

  /** What the child printed up to its "running" (its log lines come first), or until it ended. */
  private static String waitForRunning(Process child) throws java.io.IOException {
    BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder said = new StringBuilder();
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      said.append(line).append('\n');
      if (line.equals("running")) {
        break;
      }
    }
    return said.toString();
  }

  private static Process start(String point, String scenario, long... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path")));
    if (point != null) {
      command.add("-D" + HALT_AT + "=" + point);
    }
    command.addAll(List.of(LookupCrashChild.class.getName(), driverUrl() + "?shardex.instance=crash-child",
        TestCluster.sandbox().user(), TestCluster.sandbox().password(), scenario));
    Arrays.stream(args).forEach(a -> command.add(Long.toString(a)));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  private static String driverUrl() {
    return "jdbc:shardex:" + TestCluster.sandbox().directoryUrl().substring("jdbc:".length());
  }

  private static Properties login() {
    Properties p = new Properties();
    p.setProperty("user", TestCluster.sandbox().user());
    p.setProperty("password", TestCluster.sandbox().password());
    return p;
  }

  // ---- helpers ---------------------------------------------------------------------------------------

  private static long[] ids(int from, int to) {
    return java.util.stream.LongStream.rangeClosed(from, to).toArray();
  }

  private static List<Row> pets(long... ids) {
    return Arrays.stream(ids).mapToObj(id -> new Row(id, LookupCrashChild.owner(id), LookupCrashChild.tag(id))).toList();
  }

  /** The entries {@code before}'s rows needed that {@code after}'s rows do not. */
  private static Set<Entry> gone(java.util.Collection<Row> before, java.util.Collection<Row> after) {
    Set<Entry> gone = new HashSet<>(LookupCrashState.wanted(before));
    gone.removeAll(LookupCrashState.wanted(after));
    return gone;
  }

  private static Set<String> sorted(Set<Entry> entries) {
    return entries.stream().map(Entry::toString).collect(Collectors.toCollection(TreeSet::new));
  }

  private static int shardsOf(long... owners) throws SQLException {
    Set<String> shards = new HashSet<>();
    for (long owner : owners) {
      try (Connection c = TestCluster.pool().getConnection();
          PreparedStatement ps = c.prepareStatement("SELECT shard_id FROM key_map WHERE keyspace = 'default' AND k = ?")) {
        ps.setString(1, Long.toString(owner));
        shards.addAll(rowsOf(ps));
      }
    }
    return shards.size();
  }

  private static List<String> rowsOf(PreparedStatement ps) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          row.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }
}
