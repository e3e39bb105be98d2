package dev.shardex.directory;

import static dev.shardex.directory.DirectoryTestSupport.keyCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shardex.directory.catalog.ShardStatus;
import dev.shardex.directory.placement.KeyState;
import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link Directory}, the caching client, polled by hand and with an injected lease clock. */
class DirectoryTest {
  private static final String KS = "users";
  private static final long LEASE_MS = 2_000;

  private final AtomicLong now = new AtomicLong(5_000_000_000L);
  private final Ticker ticker = now::get;
  private DirectoryStore store;
  private Directory directory;

  @BeforeEach
  void emptyDirectory() throws SQLException {
    store = DirectoryTestSupport.freshStore();
    store.addKeySpace(new KeySpace(KS, KeyType.BIGINT, KeySpace.LEAST_LOADED));
  }

  @AfterEach
  void closeClient() {
    if (directory != null) {
      directory.close();
    }
  }

  private Directory open() throws SQLException {
    return open(DirectoryOptions.defaults().withAutoPoll(false).withTicker(ticker));
  }

  private Directory open(DirectoryOptions options) throws SQLException {
    directory = Directory.open(store, options, "dirtest");
    return directory;
  }

  private void twoShards(double weight0, double weight1) throws SQLException {
    store.addShard(0, DirectoryTestSupport.sandbox().shardUrl(0), weight0);
    store.addShard(1, DirectoryTestSupport.sandbox().shardUrl(1), weight1);
  }

  private static long placedOn(int shard) throws SQLException {
    return Long.parseLong(DirectoryTestSupport.scalar(
        "SELECT COUNT(*) FROM key_map WHERE keyspace = ? AND shard_id = ?", KS, shard));
  }

  // ---- placement --------------------------------------------------------------------------------

  @Test
  void routeWrite_newKeys_placedLeastLoadedByWeight() throws SQLException {
    twoShards(1, 3);
    Directory d = open();

    for (long key = 1; key <= 400; key++) {
      d.routeWrite(KS, key);
    }

    assertEquals(100, placedOn(0), "weight 1 of 4");
    assertEquals(300, placedOn(1), "weight 3 of 4");
    assertEquals(100, keyCount(store, 0));
    assertEquals(300, keyCount(store, 1));
  }

  @Test
  void routeWrite_knownKey_sameShardNothingNewPlaced() throws SQLException {
    twoShards(1, 1);
    Directory d = open();
    Placement first = d.routeWrite(KS, 77L);

    assertEquals(first.shardId(), d.routeWrite(KS, 77L).shardId());
    assertEquals(first.shardId(), d.routeRead(KS, 77L).shardId());
    assertEquals(new Placement(first.shardId(), KeyState.ACTIVE, 1), store.lookup(KS, "77"));
    assertEquals(1, keyCount(store, 0) + keyCount(store, 1));
  }

  @Test
  void routeWrite_readOnlyShard_getsNoNewKeys() throws SQLException {
    twoShards(1, 1);
    store.setShardStatus(0, ShardStatus.READ_ONLY);
    Directory d = open();

    for (long key = 1; key <= 6; key++) {
      assertEquals(1, d.routeWrite(KS, key).shardId());
    }
    assertEquals(0, placedOn(0));
  }

  @Test
  void routeWrite_noOnlineShard_failsWithShx1405() throws SQLException {
    twoShards(1, 1);
    store.setShardStatus(0, ShardStatus.OFFLINE);
    store.setShardStatus(1, ShardStatus.READ_ONLY);
    Directory d = open();

    SQLException e = assertThrows(SQLException.class, () -> d.routeWrite(KS, 5L));
    assertEquals("57S02", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Shardex SHX1405: "), e.getMessage());
    assertNull(store.lookup(KS, "5"));
  }

  @Test
  void routeWrite_dryRun_choosesAShardButPlacesNothing() throws SQLException {
    twoShards(1, 1);
    Directory d = open();
    d.routeWrite(KS, 1L); // shard 0 now has one key, so a new key would go to shard 1

    Placement p = d.routeWrite(KS, 2L, false);

    assertEquals(1, p.shardId());
    assertNull(store.lookup(KS, "2"), "a dry run places nothing");
    assertNull(d.routeRead(KS, 2L), "nor caches anything");
    assertEquals(0, keyCount(store, 1));
    assertEquals(1, d.routeWrite(KS, 2L).shardId(), "the real write then places where the dry run said");
  }

  @Test
  void routeRead_unknownKey_nullAndPlacesNothing() throws SQLException {
    twoShards(1, 1);
    Directory d = open();

    assertNull(d.routeRead(KS, 123L));

    assertNull(store.lookup(KS, "123"));
    assertEquals(0, keyCount(store, 0) + keyCount(store, 1));
  }

  @Test
  void routeRead_keyPlacedByAnotherDriverAfterAMiss_foundWithoutAPoll() throws SQLException {
    twoShards(1, 1);
    Directory d = open();
    assertNull(d.routeRead(KS, 123L));

    store.placeIfAbsent(KS, "123", 1);

    assertEquals(1, d.routeRead(KS, 123L).shardId(), "unknown keys are not cached as absent");
  }

  @Test
  void routeRead_canonicalKeys_shareOneCacheEntry() throws SQLException {
    twoShards(1, 1);
    Directory d = open();
    Object key = KeyType.BIGINT.canonical("31", "posts", "author_id");
    int shard = d.routeWrite(KS, key).shardId();

    assertEquals(shard, d.routeRead(KS, KeyType.BIGINT.canonical(31, "posts", "author_id")).shardId());
    assertEquals(shard, d.routeRead(KS, KeyType.BIGINT.canonical(31L, "posts", "author_id")).shardId());
  }

  @Test
  void routeWrite_longStringKeyFromTwoClients_samePlacementOrBadKey() throws SQLException {
    // key_map.k is VARCHAR(255): a longer key must either work like any other or be refused
    // as a bad key (22018), never be stored truncated and then not be found.
    twoShards(1, 1);
    store.addKeySpace(new KeySpace("devices", KeyType.STRING, KeySpace.LEAST_LOADED));
    String key = "d".repeat(300);
    Directory a = open();
    try (Directory b = Directory.open(store, DirectoryOptions.defaults().withAutoPoll(false), "dirtest-b")) {
      Placement first;
      try {
        first = a.routeWrite("devices", key);
      } catch (SQLException refused) {
        assertEquals("22018", refused.getSQLState(), refused.getMessage());
        return;
      }
      assertEquals(first, store.lookup("devices", key), "the placed key is found again");
      assertEquals(first.shardId(), b.routeWrite("devices", key).shardId(), "a second driver agrees");
      assertEquals(1, keyCount(store, 0) + keyCount(store, 1));
    }
  }

  @Test
  void routeWrite_twoLongStringKeysSharingA255Prefix_areTwoKeys() throws SQLException {
    twoShards(1, 1);
    store.addKeySpace(new KeySpace("devices", KeyType.STRING, KeySpace.LEAST_LOADED));
    Directory d = open();
    String prefix = "p".repeat(255);
    Placement first;
    try {
      first = d.routeWrite("devices", prefix + "A");
    } catch (SQLException refused) {
      assertEquals("22018", refused.getSQLState(), refused.getMessage());
      return;
    }
    Placement second = d.routeWrite("devices", prefix + "B");

    assertEquals(0, first.shardId());
    assertEquals(1, second.shardId(), "a different key is placed on its own (least loaded: shard 1)");
  }

  @Test
  void open_longClientName_registersTheClient() throws SQLException {
    // shardex.instance has no length limit, and the driver names its directory client after it.
    twoShards(1, 1);
    directory = Directory.open(store, DirectoryOptions.defaults().withAutoPoll(false), "instance-" + "n".repeat(60));
    assertEquals(Long.toString(directory.appliedChange()),
        DirectoryTestSupport.scalar("SELECT applied_change FROM clients WHERE id = ?", directory.clientId()));
  }

  // ---- cache invalidation through the change log -------------------------------------------------

  @Test
  void routeRead_keyReassignedInStore_servedFromCacheUntilPoll() throws SQLException {
    twoShards(1, 1);
    Directory d = open();
    int before = d.routeWrite(KS, 42L).shardId();
    int after = 1 - before;

    store.assign(KS, "42", after);

    assertEquals(before, d.routeRead(KS, 42L).shardId(), "cached until the change log is polled");
    assertEquals(before, d.routeWrite(KS, 42L).shardId());
    d.pollNow();
    assertEquals(after, d.routeRead(KS, 42L).shardId());
    assertEquals(after, d.routeWrite(KS, 42L).shardId());
  }

  @Test
  void routeRead_stringKeyReassignedInStore_newShardAfterPoll() throws SQLException {
    twoShards(1, 1);
    store.addKeySpace(new KeySpace("devices", KeyType.STRING, KeySpace.LEAST_LOADED));
    Directory d = open();
    Object key = KeyType.STRING.canonical(new byte[] {0x0a, (byte) 0xff}, "devices_t", "device");
    int before = d.routeWrite("devices", key).shardId();

    store.assign("devices", "0aff", 1 - before);
    d.pollNow();

    assertEquals(1 - before, d.routeRead("devices", key).shardId());
  }

  @Test
  void shards_statusChangedInStore_visibleAfterPoll() throws SQLException {
    twoShards(1, 1);
    Directory d = open();
    assertEquals(ShardStatus.ONLINE, d.shards().get(1).status());

    store.setShardStatus(1, ShardStatus.READ_ONLY);
    assertEquals(ShardStatus.ONLINE, d.shards().get(1).status(), "cached until polled");
    d.pollNow();

    assertEquals(ShardStatus.READ_ONLY, d.shards().get(1).status());
    assertEquals(ShardStatus.READ_ONLY, d.shard(1).status());
  }

  @Test
  void shards_shardAddedInStore_visibleAfterPoll() throws SQLException {
    twoShards(1, 1);
    Directory d = open();
    assertEquals(2, d.shards().size());

    store.addShard(5, "jdbc:mysql://127.0.0.1:1/app", 2);
    d.pollNow();

    assertEquals(3, d.shards().size());
    assertEquals(2.0, d.shard(5).weight());
  }

  @Test
  void shard_unknownId_failsWithShx1404() throws SQLException {
    twoShards(1, 1);
    Directory d = open();
    SQLException e = assertThrows(SQLException.class, () -> d.shard(9));
    assertTrue(e.getMessage().startsWith("Shardex SHX1404: shard 9 "), e.getMessage());
  }

  @Test
  void homeShard_lowestId() throws SQLException {
    store.addShard(3, "jdbc:mysql://h3:3306/app", 1);
    store.addShard(1, "jdbc:mysql://h1:3306/app", 1);
    assertEquals(1, open().homeShard());
  }

  @Test
  void table_declaredAfterAMiss_absentUntilPoll() throws SQLException {
    twoShards(1, 1);
    Directory d = open();
    assertNull(d.table("posts"));

    store.declareTable(TableDef.sharded("posts", KS, "author_id"));
    assertNull(d.table("posts"), "absent tables are cached too");
    d.pollNow();

    assertEquals(new TableDef("posts", TableKind.SHARDED, KS, "author_id", null), d.table("POSTS"));
  }

  @Test
  void table_droppedInStore_goneAfterPoll() throws SQLException {
    twoShards(1, 1);
    store.declareTable(TableDef.global("countries"));
    Directory d = open();
    assertNotNull(d.table("countries"));

    store.dropTable("countries");
    d.pollNow();

    assertNull(d.table("countries"));
  }

  @Test
  void keySpace_missing_failsWithShx1504() throws SQLException {
    twoShards(1, 1);
    Directory d = open();
    SQLException e = assertThrows(SQLException.class, () -> d.keySpace("nosuch"));
    assertTrue(e.getMessage().startsWith("Shardex SHX1504: key space 'nosuch' is not in the directory"), e.getMessage());
  }

  // ---- clients and heartbeats ----------------------------------------------------------------------

  @Test
  void clientRow_registeredHeartbeatsAppliedChangeAndRemovedOnClose() throws SQLException {
    twoShards(1, 1);
    Directory d = open();
    String id = d.clientId();
    assertEquals(Long.toString(store.lastChange()), appliedChangeOf(id), "registered with what it has applied");

    store.addShard(2, "jdbc:mysql://h2:3306/app", 1);
    store.declareTable(TableDef.global("countries"));
    long last = store.lastChange();
    assertTrue(Long.parseLong(appliedChangeOf(id)) < last);

    d.pollNow();

    assertEquals(Long.toString(last), appliedChangeOf(id));
    assertEquals(last, d.appliedChange());

    d.close();
    directory = null;
    assertNull(appliedChangeOf(id), "a closed client leaves the clients table");
  }

  @Test
  void clientRow_twoClients_twoRows() throws SQLException {
    twoShards(1, 1);
    Directory a = open();
    try (Directory b = Directory.open(store, DirectoryOptions.defaults().withAutoPoll(false), "dirtest")) {
      assertTrue(!a.clientId().equals(b.clientId()), "each client has its own id");
      assertEquals("2", DirectoryTestSupport.scalar("SELECT COUNT(*) FROM clients"));
    }
    assertEquals("1", DirectoryTestSupport.scalar("SELECT COUNT(*) FROM clients"));
  }

  private static String appliedChangeOf(String clientId) throws SQLException {
    return DirectoryTestSupport.scalar("SELECT applied_change FROM clients WHERE id = ?", clientId);
  }

  // ---- the lease -----------------------------------------------------------------------------------

  @Test
  void routeWrite_leaseLapsed_failsWithShx1407UntilThePollAfter() throws SQLException {
    twoShards(1, 1);
    Directory d = open();
    int shard = d.routeWrite(KS, 10L).shardId();

    now.addAndGet(TimeUnit.MILLISECONDS.toNanos(LEASE_MS - 1));
    assertEquals(shard, d.routeWrite(KS, 10L).shardId(), "still within the lease");

    now.addAndGet(TimeUnit.MILLISECONDS.toNanos(2));
    SQLException e = assertThrows(SQLException.class, () -> d.routeWrite(KS, 10L));
    assertInstanceOf(SQLTransientConnectionException.class, e);
    assertEquals("57S01", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Shardex SHX1407"), e.getMessage());
    assertTrue(e.getMessage().contains("shardex.leaseMs=2000"), e.getMessage());
    assertTrue(!d.lease().valid());
    assertThrows(SQLException.class, () -> d.routeWrite(KS, 11L), "new keys are refused too");
    assertNull(store.lookup(KS, "11"), "and not placed");
    assertEquals(shard, d.routeRead(KS, 10L).shardId(), "reads go on from the cache");

    d.pollNow();

    assertEquals(shard, d.routeWrite(KS, 10L).shardId());
    assertNotNull(d.routeWrite(KS, 11L));
  }

  // ---- frozen keys -----------------------------------------------------------------------------------

  private DirectoryOptions frozenWait(long ms) {
    return new DirectoryOptions(100, LEASE_MS, ms, 1_000, ticker, false);
  }

  private static void setState(long key, String state, int shard) throws SQLException {
    DirectoryTestSupport.update("UPDATE key_map SET state = ?, shard_id = ? WHERE keyspace = ? AND k = ?",
        state, shard, KS, Long.toString(key));
  }

  @Test
  void routeWrite_frozenKey_waitsThenFailsWithShx1408() throws SQLException {
    twoShards(1, 1);
    store.placeIfAbsent(KS, "70", 0);
    setState(70, "FROZEN", 0);
    Directory d = open(frozenWait(200));

    long started = System.nanoTime();
    SQLException e = assertThrows(SQLException.class, () -> d.routeWrite(KS, 70L));
    long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

    assertInstanceOf(SQLTransientException.class, e);
    assertEquals("HYT00", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Shardex SHX1408: write to key 70 of key space users waited "), e.getMessage());
    assertTrue(e.getMessage().contains("shardex.frozenWaitMs=200"), e.getMessage());
    assertTrue(waitedMs >= 200, "waited " + waitedMs + " ms");
    assertTrue(waitedMs < 3_000, "bounded wait, waited " + waitedMs + " ms");
    assertEquals(0, d.routeRead(KS, 70L).shardId(), "reads of a frozen key go on");
  }

  @Test
  void routeWrite_frozenKeyFlippedToAnotherShardWhileWaiting_returnsTheNewShard() throws Exception {
    twoShards(1, 1);
    store.placeIfAbsent(KS, "71", 0);
    setState(71, "FROZEN", 0);
    Directory d = open(frozenWait(5_000));

    CompletableFuture<Placement> write = CompletableFuture.supplyAsync(() -> {
      try {
        return d.routeWrite(KS, 71L);
      } catch (SQLException e) {
        throw new RuntimeException(e);
      }
    });
    Thread.sleep(150);
    assertTrue(!write.isDone(), "the write waits while the key is frozen");
    setState(71, "ACTIVE", 1);

    Placement p = write.get(5, TimeUnit.SECONDS);
    assertEquals(1, p.shardId());
    assertEquals(KeyState.ACTIVE, p.state());
    assertEquals(1, d.routeRead(KS, 71L).shardId(), "the new owner is cached");
  }
}
