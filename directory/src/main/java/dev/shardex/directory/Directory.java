package dev.shardex.directory;

import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.catalog.CatalogCache;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.change.Change;
import dev.shardex.directory.change.ChangePoller;
import dev.shardex.directory.client.ClientIds;
import dev.shardex.directory.client.Lease;
import dev.shardex.directory.lookup.LookupStore;
import dev.shardex.directory.lookup.Lookups;
import dev.shardex.directory.placement.HiddenRows;
import dev.shardex.directory.placement.KeyMarks;
import dev.shardex.directory.placement.KeyPlacements;
import dev.shardex.directory.placement.KeyPlacer;
import dev.shardex.directory.placement.Placement;
import dev.shardex.directory.placement.ReadMarks;
import dev.shardex.directory.sequence.Sequences;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * One driver instance's view of the directory: the catalog and the key map, cached, kept fresh by
 * the change log, with the lease that guards writes.
 *
 * <p>Caching: key placements live in a bounded Caffeine cache per key space; tables and key spaces
 * are loaded on first use (never scanned at start-up, so a catalog of 10,000 tables costs nothing
 * until they are used) and cached, absent ones too. A change-log entry drops exactly what it names.
 * Unknown keys are not cached: the first INSERT of a key places it, and a read of an unknown key
 * asks the directory again next time.
 *
 * <p>Writes: {@link #routeWrite} refuses when the lease has lapsed, places a new key with an
 * insert-if-absent (two racing drivers agree), and waits, bounded, while the key is FROZEN by a
 * move, re-reading the directory (never a cache) until the key is ACTIVE on its new shard.
 */
public final class Directory implements AutoCloseable {
  private final DirectoryStore store;
  private final DirectoryOptions options;
  private final String clientId;
  private final HikariDataSource ownedPool;
  private final Lease lease;
  private final ChangePoller poller;
  private final KeyPlacements keys;
  private final CatalogCache catalog;
  private final Sequences sequences;
  private final HiddenRows hidden = new HiddenRows();
  private final Lookups lookups;
  /** How a write treats a key the directory does not know. */
  public enum WriteMode {
    /** INSERT: place it (insert-if-absent). */
    PLACE,
    /** UPDATE/DELETE: it has no rows anywhere; answer null. */
    EXISTING,
    /** EXPLAIN ROUTE: answer the shard placement would choose now; place nothing, guard nothing. */
    PREDICT
  }

  Directory(DirectoryStore store, DirectoryOptions options, String displayUrl, HikariDataSource ownedPool,
      String clientName, KeyPlacer whatIf) throws SQLException {
    this.store = store;
    this.options = options;
    this.ownedPool = ownedPool;
    this.clientId = ClientIds.next(clientName);
    this.lease = new Lease(options.ticker(), options.leaseMs(), displayUrl);
    this.keys = new KeyPlacements(this, store, options, lease, hidden, displayUrl, whatIf);
    this.sequences = new Sequences(store, options);
    long start = store.lastChange();
    this.catalog = new CatalogCache(store); // after the change id: a change while it loads is polled again
    this.lookups = new Lookups(new LookupStore(store), options.cacheSize(), catalog::bump);
    store.registerClient(clientId, clientInfo(), start);
    hidden.load(store); // moves under way now; later phases come with the change log from start
    this.poller = new ChangePoller(store, clientId, lease, start, new java.util.function.Consumer<Change>() {
      @Override
      public void accept(Change change) { // anonymous classes, not method references: no lambda linkage at start-up
        apply(change);
      }
    }, new java.util.function.Predicate<Change>() {
      @Override
      public boolean test(Change change) {
        return keys.keyBusy(change);
      }
    }, displayUrl);
    poller.poll();
    if (options.autoPoll()) {
      poller.start(options.pollMs(), new java.util.function.BooleanSupplier() {
        @Override
        public boolean getAsBoolean() {
          return hidden.any();
        }
      });
    }
  }

  /**
   * Opens a directory client with its own small connection pool. The pool gets the URL without
   * its credentials ({@code user:password@}, {@code user=}, {@code password=} are taken out and
   * passed as HikariCP's username and password, which it never logs), waits for a connection at
   * most the lease, and names the directory in every connection failure (SHX1406).
   */
  public static Directory open(String jdbcUrl, String user, String password, DirectoryOptions options, String clientName)
      throws SQLException {
    return open(jdbcUrl, user, password, options, clientName, null);
  }

  /**
   * The same, adopting {@code login} (an open connection to the same URL with the same
   * credentials, or null) as the pool's first connection instead of opening another one; it is
   * closed if the directory cannot be opened.
   */
  public static Directory open(String jdbcUrl, String user, String password, DirectoryOptions options, String clientName,
      java.sql.Connection login) throws SQLException {
    return DirectoryPool.open(jdbcUrl, user, password, options, clientName, login);
  }

  /** Opens a client over a store the caller owns (tests, the CLI). */
  public static Directory open(DirectoryStore store, DirectoryOptions options, String clientName) throws SQLException {
    return new Directory(store, options, "directory", null, clientName, null);
  }

  /**
   * A what-if client over a store the caller owns ({@code shardex analyze}): the catalog is the
   * store's, but a key the cache does not hold is placed by {@code placer}, never read from or
   * written to the key map. Only dry runs should route through it.
   */
  public static Directory openWhatIf(DirectoryStore store, DirectoryOptions options, String clientName, KeyPlacer placer)
      throws SQLException {
    return new Directory(store, options, "what-if directory", null, clientName, java.util.Objects.requireNonNull(placer));
  }

  public DirectoryStore store() {
    return store;
  }

  public String clientId() {
    return clientId;
  }

  public Lease lease() {
    return lease;
  }

  public DirectoryOptions options() {
    return options;
  }

  /** Polls now (tests, and callers with autoPoll off). */
  public void pollNow() throws SQLException {
    poller.poll();
  }

  /** Figures for telemetry: the key caches, the lease, the change log, moves under way (read, never reset). */
  public DirectoryStats stats() {
    return new DirectoryStats(keys.stats(), lease.ageMillis(), appliedChange(), hidden.count());
  }

  public long appliedChange() {
    return poller == null ? 0 : poller.applied();
  }

  // ---- catalog --------------------------------------------------------------------------------

  /**
   * A number that changes (after the cache is dropped) whenever a table, key space, shard or
   * sequence column this client caches changes: what was derived from the catalog at one version
   * may be reused while the version stays the same.
   */
  public long catalogVersion() {
    return catalog.version();
  }

  public Map<Integer, Shard> shards() {
    return catalog.shards();
  }

  /** The shard's declared replicas (empty when it has none), as of the last SHARD change applied. */
  public java.util.List<dev.shardex.directory.catalog.Replica> replicas(int shardId) {
    return catalog.replicas(shardId);
  }

  /**
   * When (System.nanoTime) this client last applied a move's announcement, or opened: a replica may
   * serve reads only once it has applied a primary position read after this (docs/replicas.md, moves).
   */
  public long lastMoveNanos() {
    return lastMoveNanos;
  }

  /** Whether a move is under way (some key's rows are hidden from key-less reads): replicas take no reads meanwhile. */
  public boolean movesUnderway() {
    return hidden.any();
  }

  private volatile long lastMoveNanos = System.nanoTime();

  /** Whether any shard has a declared replica. */
  public boolean hasReplicas() {
    return catalog.hasReplicas();
  }

  public Shard shard(int id) throws SQLException {
    return catalog.shard(id);
  }

  /** The shard that holds SINGLE tables declared without a shard, and unknown tables: the lowest id. */
  public int homeShard() throws SQLException {
    return catalog.homeShard();
  }

  /** Any shard that accepts reads, for statements that name no table. */
  public int anyReadableShard() throws SQLException {
    return catalog.anyReadableShard();
  }

  public TableDef table(String name) throws SQLException {
    return catalog.table(name);
  }

  public KeySpace keySpace(String name) throws SQLException {
    return catalog.keySpace(name);
  }

  /** Declares (or re-declares) a table and drops this client's cached copy at once. */
  public void declare(TableDef table) throws SQLException {
    store.declareTable(table);
    catalog.forgetTable(table.name());
    catalog.bump();
  }

  public void undeclare(String name) throws SQLException {
    store.dropTable(TableDef.normalise(name));
    lookups.store().dropAll(name);
    catalog.forgetTable(TableDef.normalise(name));
    lookups.forgetTable(TableDef.normalise(name));
    catalog.bump();
  }

  /** The lookup indexes, their catalog and entries (cached). */
  public Lookups lookups() {
    return lookups;
  }

  // ---- sequences ------------------------------------------------------------------------------

  /** The column INSERTs into this table get filled from a sequence when they omit it, or null. */
  public String sequenceColumn(String table) throws SQLException {
    return sequences.column(table);
  }

  public void declareSequence(String table, String column) throws SQLException {
    sequences.declareColumn(table, column);
    catalog.bump();
  }

  /** The next {@code n} ids of a sequence, from this instance's current block (a new block when it runs out). */
  public long[] nextIds(String sequence, int n, int blockSize) throws SQLException {
    return sequences.next(sequence, n, blockSize);
  }

  /** Values an INSERT gives explicitly for the sequence-filled column of {@code table} (see {@link Sequences}). */
  public void explicitIds(String table, String column, long[] values, int blockSize) throws SQLException {
    sequences.explicit(table, column, values, blockSize);
  }

  /** Starts the sequence of {@code table.column} after {@code largest}, the largest value on any shard. */
  public void startSequenceAfter(String table, String column, long largest) throws SQLException {
    sequences.startAfter(table, column, largest);
  }

  // ---- keys (KeyPlacements does the work) ---------------------------------------------------------

  /** The shard a key lives on for reading, or null when the directory does not know the key. */
  public Placement routeRead(String keySpace, Object canonicalKey) throws SQLException {
    return keys.routeRead(keySpace, canonicalKey);
  }

  /**
   * As {@link #routeRead(String, Object)}, and adds to {@code tickets} what the read was routed by,
   * for {@link ReadMarks#current} once the shard has answered.
   */
  public Placement routeRead(String keySpace, Object canonicalKey, List<AutoCloseable> tickets) throws SQLException {
    KeyMarks marks = new KeyMarks();
    Placement p = keys.routeRead(keySpace, canonicalKey, marks);
    marks.moveTo(tickets);
    return p;
  }

  /** As {@link #routeRead(String, Object)}, and marks in {@code marks} what the read was routed by (allocates nothing). */
  public Placement routeRead(String keySpace, Object canonicalKey, KeyMarks marks) throws SQLException {
    return keys.routeRead(keySpace, canonicalKey, marks);
  }

  /** The shard a write for this key must go to; places unknown keys, waits out moves. No guard is kept. */
  public Placement routeWrite(String keySpace, Object canonicalKey) throws SQLException {
    return routeWrite(keySpace, canonicalKey, true);
  }

  /** As {@link #routeWrite(String, Object)}; {@code place=false} predicts (EXPLAIN ROUTE). */
  public Placement routeWrite(String keySpace, Object canonicalKey, boolean place) throws SQLException {
    KeyMarks marks = new KeyMarks();
    try {
      return keys.routeWrite(keySpace, canonicalKey, place ? WriteMode.PLACE : WriteMode.PREDICT, marks, List.of());
    } finally {
      marks.clear();
    }
  }

  /**
   * The shard a write for this key must go to, with the key marked in flight until the caller
   * closes the guard added to {@code guards} (after the write commits or rolls back). Refused when
   * the lease has lapsed; waits (bounded) while the key is FROZEN by a move.
   */
  public Placement routeWrite(String keySpace, Object canonicalKey, WriteMode mode, List<AutoCloseable> guards)
      throws SQLException {
    return routeWrite(keySpace, canonicalKey, mode, guards, List.of());
  }

  /** As above; {@code held} are the guards the caller's transaction already holds. */
  public Placement routeWrite(String keySpace, Object canonicalKey, WriteMode mode, List<AutoCloseable> guards,
      java.util.Collection<AutoCloseable> held) throws SQLException {
    KeyMarks marks = new KeyMarks();
    Placement p = keys.routeWrite(keySpace, canonicalKey, mode, marks, held);
    marks.moveWritesTo(guards);
    return p;
  }

  /**
   * As above, with the key's in-flight mark added to {@code marks} (allocates nothing): the caller
   * ends it ({@link KeyMarks#releaseWrites}) or hands it to its transaction once the write has finished.
   */
  public Placement routeWrite(String keySpace, Object canonicalKey, WriteMode mode, KeyMarks marks,
      java.util.Collection<AutoCloseable> held) throws SQLException {
    return keys.routeWrite(keySpace, canonicalKey, mode, marks, held);
  }

  /** Closes write guards; never throws. */
  public static void release(List<AutoCloseable> guards) {
    for (AutoCloseable g : guards) {
      try {
        g.close();
      } catch (Exception ignored) {
        // guards only count down
      }
    }
  }

  /**
   * Starts a key-less read of the key space's SHARDED tables: until the returned mark is closed
   * (once every shard answered), this driver does not acknowledge a move's COPYING or FLIPPED
   * phase, and the mark says which rows each shard must hide from the read (a snapshot taken after
   * the mark, the same for every shard of the read).
   */
  public ReadMarks.ScatterRead beginScatter(String keySpace) {
    return keys.beginScatter(keySpace);
  }

  // ---- change application -----------------------------------------------------------------------

  private void apply(Change change) {
    if (HiddenRows.phase(change) != null) {
      lastMoveNanos = System.nanoTime(); // replicas must pass this before they take reads again
      hidden.apply(change); // a move's announcement: the key's placement did not change
      return;
    }
    switch (change.kind()) {
      case KEY -> keys.invalidate(change);
      case TABLE -> {
        catalog.forgetTable(change.ref());
        lookups.forgetTable(change.ref());
        sequences.forget(change.ref());
        catalog.bump();
      }
      case LOOKUP -> lookups.apply(change);
      case KEYSPACE -> catalog.forgetKeySpace(change.keySpace());
      case SHARD -> catalog.reloadShards();
    }
  }

  private static String clientInfo() {
    return ProcessHandle.current().pid() + "@" + System.getProperty("user.name", "?");
  }

  @Override
  public void close() {
    poller.close();
    try {
      store.removeClient(clientId);
    } catch (SQLException e) {
      // the row ages out: movers stop waiting for a client whose lease has lapsed
    }
    store.closeClaims();
    if (ownedPool != null) {
      ownedPool.close();
    }
  }
}
