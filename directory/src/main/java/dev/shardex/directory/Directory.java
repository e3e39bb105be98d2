package dev.shardex.directory;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.change.Change;
import dev.shardex.directory.change.ChangePoller;
import dev.shardex.directory.client.ClientIds;
import dev.shardex.directory.client.DirectoryConnections;
import dev.shardex.directory.client.Lease;
import dev.shardex.directory.lookup.ClaimPool;
import dev.shardex.directory.lookup.LookupStore;
import dev.shardex.directory.lookup.Lookups;
import dev.shardex.directory.placement.HiddenRows;
import dev.shardex.directory.placement.KeyMarks;
import dev.shardex.directory.placement.KeyPlacements;
import dev.shardex.directory.placement.KeyPlacer;
import dev.shardex.directory.placement.Placement;
import dev.shardex.directory.placement.ReadMarks;
import dev.shardex.directory.sequence.SequenceBlocks;
import dev.shardex.directory.sequence.SequenceStore;
import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

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
  private final Cache<String, Optional<TableDef>> tables;
  private final Cache<String, Optional<KeySpace>> keySpaces;
  private volatile java.util.NavigableMap<Integer, Shard> shards;
  private final SequenceStore sequences;
  private final Cache<String, Optional<String>> sequenceColumns = Caffeine.newBuilder().maximumSize(100_000).build();
  private final SequenceBlocks blocks;
  /** Bumped after every change of the catalog this client caches (tables, key spaces, shards, sequences). */
  private final java.util.concurrent.atomic.AtomicLong catalogVersion = new java.util.concurrent.atomic.AtomicLong();
  private final HiddenRows hidden = new HiddenRows();
  private static final java.util.concurrent.atomic.AtomicInteger POOLS = new java.util.concurrent.atomic.AtomicInteger();
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

  private Directory(DirectoryStore store, DirectoryOptions options, String displayUrl, HikariDataSource ownedPool,
      String clientName, KeyPlacer whatIf) throws SQLException {
    this.store = store;
    this.options = options;
    this.ownedPool = ownedPool;
    this.clientId = ClientIds.next(clientName);
    this.lease = new Lease(options.ticker(), options.leaseMs(), displayUrl);
    this.keys = new KeyPlacements(this, store, options, lease, hidden, displayUrl, whatIf);
    this.tables = Caffeine.newBuilder().maximumSize(100_000).build();
    this.sequences = new SequenceStore(store);
    this.blocks = new SequenceBlocks(sequences, store, options);
    this.keySpaces = Caffeine.newBuilder().maximumSize(10_000).build();
    this.lookups = new Lookups(new LookupStore(store), options.cacheSize(), catalogVersion::incrementAndGet);
    long start = store.lastChange();
    this.shards = loadShards();
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
    Redact.Credentials split = Redact.credentials(jdbcUrl);
    String name = user != null ? user : split.user();
    String secret = password != null ? password : split.password();
    String display = Redact.url(split.url());
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(split.url());
    DirectoryConnections connections = null;
    if (login != null) {
      connections = new DirectoryConnections(split.url(), name, secret, login);
      config.setDataSource(connections);
    } else {
      config.setUsername(name);
      config.setPassword(secret);
    }
    config.setMaximumPoolSize(4);
    config.setMinimumIdle(1);
    config.setConnectionTimeout(Math.max(250, Math.min(5_000, options.leaseMs())));
    config.setInitializationFailTimeout(-1);
    // numbered: two clusters of one instance (other credentials) must not share a pool name (JMX, metrics)
    config.setPoolName("shardex-directory-" + clientName + "-" + POOLS.incrementAndGet());
    HikariDataSource pool = new HikariDataSource(config) {
      @Override
      public java.sql.Connection getConnection() throws SQLException {
        try {
          return super.getConnection();
        } catch (SQLException e) {
          throw unreachable(e, display, secret);
        }
      }
    };
    ClaimPool claims = new ClaimPool(split.url(), name, secret, options.claimPoolSize(), config.getConnectionTimeout(),
        clientName, display);
    try {
      return new Directory(new DirectoryStore(pool, claims), options, display, pool, clientName, null);
    } catch (SQLException e) {
      closeUnopened(pool, connections);
      throw unreachable(e, display, secret);
    } catch (RuntimeException e) {
      closeUnopened(pool, connections);
      throw e;
    }
  }

  private static void closeUnopened(HikariDataSource pool, DirectoryConnections connections) {
    pool.close();
    if (connections != null) {
      connections.discardUnused();
    }
  }

  /**
   * A failed directory connection as SHX1406 naming the directory and what still works; a refused
   * login (SQLState 28000) keeps its own error; an error already Shardex's passes through.
   */
  static SQLException unreachable(SQLException e, String display, String password) {
    if (ShardexError.of(e) == ShardexError.DIRECTORY_UNREACHABLE && e.getCause() instanceof SQLException lost) {
      e = lost; // named by the store already: name it again with what still works and what to do
    } else if (e instanceof ShardexError.Raised) {
      return e;
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && ErrorKind.accessDenied(sql)) {
        return sql;
      }
    }
    String cause = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
    Throwable root = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause() : null;
    if (root != null) {
      cause += " (" + root.getMessage().lines().findFirst().orElse("") + ")";
    }
    return ShardexError.DIRECTORY_UNREACHABLE.withCause(e, display, Redact.text(cause, password)
        + "; cached routes keep serving reads, and writes to placed keys until the lease (shardex.leaseMs) lapses;"
        + " new keys, uncached keys and declarations wait for the directory: bring its server back or fix the network to it");
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
    return catalogVersion.get();
  }

  public Map<Integer, Shard> shards() {
    return shards;
  }

  public Shard shard(int id) throws SQLException {
    Shard s = shards.get(id);
    if (s == null) {
      throw ShardexError.UNKNOWN_SHARD.exception(id);
    }
    return s;
  }

  /** The shard that holds SINGLE tables declared without a shard, and unknown tables: the lowest id. */
  public int homeShard() throws SQLException {
    if (shards.isEmpty()) {
      throw ShardexError.NO_SHARD.exception();
    }
    return shards.firstKey();
  }

  /** Any shard that accepts reads, for statements that name no table. */
  public int anyReadableShard() throws SQLException {
    return shards.values().stream().filter(s -> s.status().acceptsReads()).map(Shard::id).findFirst()
        .orElseThrow(ShardexError.NO_SHARD::exception);
  }

  public TableDef table(String name) throws SQLException {
    String key = TableDef.normalise(name);
    Optional<TableDef> cached = tables.getIfPresent(key);
    if (cached == null) {
      cached = Optional.ofNullable(store.table(key));
      tables.put(key, cached);
    }
    return cached.orElse(null);
  }

  public KeySpace keySpace(String name) throws SQLException {
    Optional<KeySpace> cached = keySpaces.getIfPresent(name);
    if (cached == null) {
      cached = Optional.ofNullable(store.keySpace(name));
      keySpaces.put(name, cached);
    }
    return cached.orElseThrow(() -> ShardexError.DIRECTORY_STATE.exception(
        "key space '" + name + "' is not in the directory; add it with 'shardex keyspaces add " + name + "'"));
  }

  /** Declares (or re-declares) a table and drops this client's cached copy at once. */
  public void declare(TableDef table) throws SQLException {
    store.declareTable(table);
    tables.invalidate(table.name());
    catalogVersion.incrementAndGet();
  }

  public void undeclare(String name) throws SQLException {
    store.dropTable(TableDef.normalise(name));
    lookups.store().dropAll(name);
    tables.invalidate(TableDef.normalise(name));
    lookups.forgetTable(TableDef.normalise(name));
    catalogVersion.incrementAndGet();
  }

  /** The lookup indexes, their catalog and entries (cached). */
  public Lookups lookups() {
    return lookups;
  }

  // ---- sequences ------------------------------------------------------------------------------

  /** The column INSERTs into this table get filled from a sequence when they omit it, or null. */
  public String sequenceColumn(String table) throws SQLException {
    String key = TableDef.normalise(table);
    Optional<String> cached = sequenceColumns.getIfPresent(key);
    if (cached == null) {
      cached = Optional.ofNullable(sequences.column(key));
      sequenceColumns.put(key, cached);
    }
    return cached.orElse(null);
  }

  public void declareSequence(String table, String column) throws SQLException {
    sequences.declareColumn(table, column);
    sequenceColumns.invalidate(TableDef.normalise(table));
    catalogVersion.incrementAndGet();
  }

  /** The next {@code n} ids of a sequence, from this instance's current block (a new block when it runs out). */
  public long[] nextIds(String sequence, int n, int blockSize) throws SQLException {
    return blocks.next(sequence, n, blockSize);
  }

  /**
   * Values an INSERT gives explicitly for the sequence-filled column of {@code table}: the sequence
   * moves past them before the row is written (see {@link SequenceBlocks}).
   */
  public void explicitIds(String table, String column, long[] values, int blockSize) throws SQLException {
    String t = TableDef.normalise(table);
    blocks.explicit(t + "." + TableDef.normalise(column), t, values, blockSize);
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
      hidden.apply(change); // a move's announcement: the key's placement did not change
      return;
    }
    switch (change.kind()) {
      case KEY -> keys.invalidate(change);
      case TABLE -> {
        tables.invalidate(change.ref());
        lookups.forgetTable(change.ref());
        sequenceColumns.invalidate(change.ref());
        blocks.drop(change.ref());
        catalogVersion.incrementAndGet();
      }
      case LOOKUP -> lookups.apply(change);
      case KEYSPACE -> {
        keySpaces.invalidate(change.keySpace());
        catalogVersion.incrementAndGet();
      }
      case SHARD -> {
        try {
          shards = loadShards();
          catalogVersion.incrementAndGet();
        } catch (SQLException e) {
          throw new IllegalStateException("cannot reload the shard catalog: " + e.getMessage(), e);
        }
      }
    }
  }

  private java.util.NavigableMap<Integer, Shard> loadShards() throws SQLException {
    TreeMap<Integer, Shard> map = new TreeMap<>();
    for (Shard s : store.shards()) {
      map.put(s.id(), s);
    }
    return map;
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
