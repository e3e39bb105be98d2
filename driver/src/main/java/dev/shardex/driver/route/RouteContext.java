package dev.shardex.driver.route;

import dev.shardex.directory.Directory;
import dev.shardex.directory.placement.KeyMarks;
import dev.shardex.directory.placement.Placement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What routing needs besides the statement: the directory, the options that change routing, the
 * shard a transaction already runs on (reads that may go anywhere prefer it), and whether this is a
 * dry run (EXPLAIN ROUTE), which must not place keys. {@code held} are the in-flight guards the
 * caller's transaction already holds.
 *
 * <p>It also collects what routing leaves behind for the caller: the key marks (writes in flight,
 * what key reads were routed by; {@link #marks}) and any other guard (a key-less read's mark). A
 * logical connection owns one context and reuses it for every statement ({@link #prefer}), so
 * routing allocates none of this per execution; it is not shared between threads.
 */
public final class RouteContext {
  private final Directory directory;
  private final boolean hintsEnabled;
  private final boolean scatterWrites;
  private final boolean dryRun;
  private final int sequenceBlock;
  private final Collection<AutoCloseable> held;
  private final TableSchemas schemas;
  private final KeyMarks marks = new KeyMarks();
  private final List<AutoCloseable> guards = new ArrayList<>(0);
  private Integer preferredShard;
  private boolean takesIds = true;
  private boolean singleStep;
  private boolean holdsKeyless;
  /** The last statement's lookup maintenance (a write to a table with lookups), or null. */
  private LookupWork lookupWork;
  /** Lookup entries the last statement was routed by from this driver's cache: (lookup, value) pairs. */
  private final List<Object> cachedLookups = new ArrayList<>(0);

  public RouteContext(Directory directory, boolean hintsEnabled, boolean scatterWrites, Integer preferredShard,
      boolean dryRun, int sequenceBlock, Collection<AutoCloseable> held, TableSchemas schemas) {
    this.directory = directory;
    this.hintsEnabled = hintsEnabled;
    this.scatterWrites = scatterWrites;
    this.preferredShard = preferredShard;
    this.dryRun = dryRun;
    this.sequenceBlock = sequenceBlock;
    this.held = held;
    this.schemas = schemas;
  }

  public RouteContext(Directory directory, boolean hintsEnabled, boolean scatterWrites, Integer preferredShard,
      boolean dryRun, int sequenceBlock, Collection<AutoCloseable> held) {
    this(directory, hintsEnabled, scatterWrites, preferredShard, dryRun, sequenceBlock, held, null);
  }

  /** The same context knowing tables' columns and unique keys. */
  public RouteContext withSchemas(TableSchemas s) {
    return new RouteContext(directory, hintsEnabled, scatterWrites, preferredShard, dryRun, sequenceBlock, held, s);
  }

  /** The same context for EXPLAIN ROUTE: nothing is placed in the directory, no key is guarded. */
  public RouteContext explaining() {
    return new RouteContext(directory, hintsEnabled, scatterWrites, preferredShard, true, sequenceBlock, held, schemas);
  }

  /** The same dry run for EXPLAIN, which takes no sequence ids either (EXPLAIN ROUTE shows them). */
  public RouteContext explainingWithoutIds() {
    RouteContext c = explaining();
    c.takesIds = false;
    return c;
  }

  /** The same dry run, for the refusal a statement gets when no cross-shard step (join, subquery pull-out) may answer it. */
  public RouteContext singleStepDryRun() {
    RouteContext c = explainingWithoutIds();
    c.singleStep = true;
    return c;
  }

  /** Whether a SELECT whose tables live apart may become a cross-shard plan ({@code Fanout.JOIN}). */
  boolean crossShardSteps() {
    return !singleStep;
  }

  /** Whether an INSERT's sequence-filled column takes ids from the sequence (not for EXPLAIN). */
  boolean takesIds() {
    return takesIds;
  }

  /** The next statement prefers this shard (its transaction's), or none. */
  public RouteContext prefer(Integer shard) {
    preferredShard = shard;
    return this;
  }

  /** Whether the next statement runs in a transaction, where an INSERT without its key is held ({@link PendingRoute}). */
  public RouteContext holding(boolean inTransaction) {
    holdsKeyless = inTransaction;
    return this;
  }

  boolean holdsKeyless() {
    return holdsKeyless;
  }

  public Directory directory() {
    return directory;
  }

  public boolean hintsEnabled() {
    return hintsEnabled;
  }

  public boolean scatterWrites() {
    return scatterWrites;
  }

  public Integer preferredShard() {
    return preferredShard;
  }

  public boolean dryRun() {
    return dryRun;
  }

  public int sequenceBlock() {
    return sequenceBlock;
  }

  public Collection<AutoCloseable> held() {
    return held;
  }

  /** The last statement's key marks: its writes in flight and what its key reads were routed by. */
  public KeyMarks marks() {
    return marks;
  }

  /** The last statement's other guards (a key-less read's mark), attached to its plan. */
  List<AutoCloseable> guards() {
    return guards;
  }

  /** Forgets the last statement's marks (ending any write it left in flight): a new statement starts. */
  void clear() {
    marks.clear();
    guards.clear();
    lookupWork = null;
    cachedLookups.clear();
  }

  /** What the last statement must do to its table's lookup indexes around its write, or null. */
  public LookupWork lookupWork() {
    return lookupWork;
  }

  void lookupWork(LookupWork w) {
    lookupWork = dryRun ? null : w;
  }

  /** Whether the last statement was routed by a lookup entry from the cache (see {@link LookupRoute#recheck}). */
  public boolean routedByCachedLookup() {
    return !cachedLookups.isEmpty();
  }

  void usedCachedLookup(dev.shardex.directory.lookup.Lookup l, String v) {
    cachedLookups.add(l);
    cachedLookups.add(v);
  }

  /** Drops the cached entries the last statement was routed by: the next route reads them from the directory. */
  public void forgetCachedLookups() {
    for (int i = 0; i < cachedLookups.size(); i += 2) {
      directory.lookups().forget((dev.shardex.directory.lookup.Lookup) cachedLookups.get(i), (String) cachedLookups.get(i + 1));
    }
    cachedLookups.clear();
  }

  /** Ends everything routing took so far (routing failed). */
  void abandon() {
    marks.clear();
    Directory.release(guards);
    guards.clear();
  }

  /** A table's columns and unique keys (read lazily), or UNKNOWN without schema access. */
  public TableSchemas.Schema schema(String table) throws SQLException {
    return schemas == null ? TableSchemas.Schema.UNKNOWN : schemas.of(table);
  }

  /**
   * The placement a read routes a key by; outside a dry run, what it was routed by is marked so the
   * caller can check, once the shards answered, that no move flipped the key meanwhile
   * ({@link KeyMarks#current}).
   */
  public Placement read(String keySpace, Object key) throws SQLException {
    return dryRun ? directory.routeRead(keySpace, key) : directory.routeRead(keySpace, key, marks);
  }

  /** The placement a write routes a key by, the key marked in flight (see {@link Directory#routeWrite}). */
  Placement write(String keySpace, Object key, boolean insert) throws SQLException {
    return directory.routeWrite(keySpace, key, mode(insert), marks, held);
  }

  /**
   * Marks a key-less read of the key space's SHARDED tables (not on a dry run): the mark, kept
   * until the read has its answer, says which rows each shard must hide.
   */
  void scatter(String keySpace, java.util.Map<String, String> keyColumns, boolean numeric) {
    if (!dryRun) {
      guards.add(new RoutePlan.ScatterMark(directory.beginScatter(keySpace), keyColumns, numeric));
    }
  }

  /** How a write routes a key: place new keys (INSERT), only existing ones (UPDATE/DELETE), or predict. */
  public Directory.WriteMode mode(boolean insert) {
    return dryRun ? Directory.WriteMode.PREDICT : insert ? Directory.WriteMode.PLACE : Directory.WriteMode.EXISTING;
  }
}
