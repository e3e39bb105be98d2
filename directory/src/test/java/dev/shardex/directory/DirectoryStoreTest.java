package dev.shardex.directory;

import static dev.shardex.directory.DirectoryTestSupport.keyCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.catalog.ShardStatus;
import dev.shardex.directory.change.Change;
import dev.shardex.directory.placement.KeyState;
import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link DirectoryStore} against the real directory database of a sandbox. */
class DirectoryStoreTest {
  private DirectoryStore store;

  @BeforeEach
  void emptyDirectory() throws SQLException {
    store = DirectoryTestSupport.freshStore();
  }

  @Test
  void init_twice_keepsWhatIsThere() throws SQLException {
    store.addShard(0, "jdbc:mysql://127.0.0.1:3306/app", 1);
    store.addKeySpace(new KeySpace("users", KeyType.BIGINT, KeySpace.LEAST_LOADED));
    long last = store.lastChange();

    store.init();
    store.init();

    assertEquals(List.of(new Shard(0, "jdbc:mysql://127.0.0.1:3306/app", ShardStatus.ONLINE, 1, 0)), store.shards());
    assertEquals(new KeySpace("users", KeyType.BIGINT, KeySpace.LEAST_LOADED), store.keySpace("users"));
    assertEquals(last, store.lastChange(), "init must not reset the change counter");
    store.addShard(1, "jdbc:mysql://127.0.0.1:3307/app", 1);
    assertEquals(last + 1, store.lastChange(), "the counter goes on after a re-init");
  }

  @Test
  void addShard_listedInIdOrderOnlineWithNoKeys() throws SQLException {
    store.addShard(2, "jdbc:mysql://h2:3306/app", 3);
    store.addShard(0, "jdbc:mysql://h0:3306/app", 1);

    assertEquals(List.of(
        new Shard(0, "jdbc:mysql://h0:3306/app", ShardStatus.ONLINE, 1, 0),
        new Shard(2, "jdbc:mysql://h2:3306/app", ShardStatus.ONLINE, 3, 0)), store.shards());
  }

  @Test
  void addShard_sameIdAgain_updatesUrlAndWeight() throws SQLException {
    store.addShard(0, "jdbc:mysql://old:3306/app", 1);
    store.addShard(0, "jdbc:mysql://new:3306/app", 2.5);

    assertEquals(List.of(new Shard(0, "jdbc:mysql://new:3306/app", ShardStatus.ONLINE, 2.5, 0)), store.shards());
  }

  @Test
  void addShard_urlWithPassword_storesNoPassword() throws SQLException {
    store.addShard(0, "jdbc:mysql://app:topsecret1@h0:3306/app?user=app&password=topsecret2&sslMode=REQUIRED", 1);

    String stored = store.shards().get(0).url();
    assertFalse(stored.contains("topsecret"), stored);
    assertTrue(stored.contains("sslMode=REQUIRED"), "other options are kept: " + stored);
    assertFalse(DirectoryTestSupport.scalar("SELECT url FROM shards WHERE id = 0").contains("topsecret"));
  }

  @Test
  void setShardStatus_known_changesStatus() throws SQLException {
    store.addShard(0, "jdbc:mysql://h0:3306/app", 1);
    store.setShardStatus(0, ShardStatus.READ_ONLY);
    assertEquals(ShardStatus.READ_ONLY, store.shards().get(0).status());
    store.setShardStatus(0, ShardStatus.OFFLINE);
    assertEquals(ShardStatus.OFFLINE, store.shards().get(0).status());
  }

  @Test
  void setShardStatus_unknownShard_failsWithShx1404AndLogsNothing() throws SQLException {
    long before = store.lastChange();
    SQLException e = assertThrows(SQLException.class, () -> store.setShardStatus(9, ShardStatus.OFFLINE));
    assertEquals("57S02", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Shardex SHX1404: shard 9 "), e.getMessage());
    assertEquals(before, store.lastChange(), "the failed change is rolled back, log entry included");
    assertTrue(store.changesSince(before, 10).isEmpty());
  }

  @Test
  void addKeySpace_thenKeySpace_roundTrips() throws SQLException {
    store.addKeySpace(new KeySpace("users", KeyType.BIGINT, KeySpace.LEAST_LOADED));
    store.addKeySpace(new KeySpace("devices", KeyType.STRING, KeySpace.LEAST_LOADED));

    assertEquals(new KeySpace("users", KeyType.BIGINT, "least_loaded"), store.keySpace("users"));
    assertEquals(new KeySpace("devices", KeyType.STRING, "least_loaded"), store.keySpace("devices"));
    assertEquals(List.of("devices", "users"), store.keySpaces().stream().map(KeySpace::name).toList());
  }

  @Test
  void keySpace_missing_isNull() throws SQLException {
    assertNull(store.keySpace("nope"));
  }

  @Test
  void declareTable_eachKind_readBackByTableAndTables() throws SQLException {
    store.addKeySpace(new KeySpace("users", KeyType.BIGINT, KeySpace.LEAST_LOADED));
    store.declareTable(TableDef.sharded("`Posts`", "users", "Author_Id"));
    store.declareTable(TableDef.global("countries"));
    store.declareTable(TableDef.single("jobs", 1));

    assertEquals(new TableDef("posts", TableKind.SHARDED, "users", "author_id", null), store.table("posts"));
    assertEquals(new TableDef("countries", TableKind.GLOBAL, null, null, null), store.table("countries"));
    assertEquals(new TableDef("jobs", TableKind.SINGLE, null, null, 1), store.table("jobs"));
    assertEquals(List.of("countries", "jobs", "posts"), store.tables().stream().map(TableDef::name).toList());
  }

  @Test
  void declareTable_again_replacesTheDeclaration() throws SQLException {
    store.declareTable(TableDef.single("jobs", 1));
    store.declareTable(TableDef.global("jobs"));

    assertEquals(new TableDef("jobs", TableKind.GLOBAL, null, null, null), store.table("jobs"));
    assertEquals(1, store.tables().size());
  }

  @Test
  void dropTable_declared_isForgotten() throws SQLException {
    store.declareTable(TableDef.global("countries"));
    store.declareTable(TableDef.global("currencies"));

    store.dropTable("countries");

    assertNull(store.table("countries"));
    assertEquals(List.of("currencies"), store.tables().stream().map(TableDef::name).toList());
  }

  @Test
  void table_unknown_isNull() throws SQLException {
    assertNull(store.table("ghost"));
  }

  @Test
  void declareTable_shardedInMissingKeySpace_failsWithShx1103() throws SQLException {
    long before = store.lastChange();

    SQLException e = assertThrows(SQLException.class,
        () -> store.declareTable(TableDef.sharded("posts", "nosuch", "author_id")));

    assertInstanceOf(SQLSyntaxErrorException.class, e);
    assertEquals("42000", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Shardex SHX1103: bad declaration of table posts: "), e.getMessage());
    assertTrue(e.getMessage().contains("key space 'nosuch' does not exist"), e.getMessage());
    assertNull(store.table("posts"), "nothing was declared");
    assertEquals(before, store.lastChange(), "nothing was logged");
  }

  @Test
  void lookup_unknownKey_isNull() throws SQLException {
    store.addShard(0, "jdbc:mysql://h0:3306/app", 1);
    assertNull(store.lookup("users", "404"));
  }

  @Test
  void placeIfAbsent_newKey_placesAndCountsIt() throws SQLException {
    store.addShard(0, "jdbc:mysql://h0:3306/app", 1);
    store.addShard(1, "jdbc:mysql://h1:3306/app", 1);

    assertEquals(new Placement(1, KeyState.ACTIVE, 1), store.placeIfAbsent("users", "7", 1));
    assertEquals(new Placement(1, KeyState.ACTIVE, 1), store.lookup("users", "7"));
    assertEquals(1, keyCount(store, 1));
    assertEquals(0, keyCount(store, 0));
  }

  @Test
  void placeIfAbsent_placedKey_keepsTheFirstPlacement() throws SQLException {
    store.addShard(0, "jdbc:mysql://h0:3306/app", 1);
    store.addShard(1, "jdbc:mysql://h1:3306/app", 1);
    store.placeIfAbsent("users", "7", 0);

    assertEquals(0, store.placeIfAbsent("users", "7", 1).shardId());
    assertEquals(1, keyCount(store, 0));
    assertEquals(0, keyCount(store, 1), "the losing candidate is not counted");
  }

  @Test
  void placeIfAbsent_sameKeyInTwoKeySpaces_areTwoKeys() throws SQLException {
    store.addShard(0, "jdbc:mysql://h0:3306/app", 1);
    store.addShard(1, "jdbc:mysql://h1:3306/app", 1);

    store.placeIfAbsent("users", "7", 0);
    store.placeIfAbsent("groups", "7", 1);

    assertEquals(0, store.lookup("users", "7").shardId());
    assertEquals(1, store.lookup("groups", "7").shardId());
  }

  @Test
  void placeIfAbsent_stringKeysDifferingOnlyInCase_areDifferentKeys() throws SQLException {
    // KeyType.STRING keeps case ("Ab" and "ab" are two canonical keys), so the key map must too.
    store.addShard(0, "jdbc:mysql://h0:3306/app", 1);
    store.addShard(1, "jdbc:mysql://h1:3306/app", 1);

    store.placeIfAbsent("devices", "abc", 0);
    Placement upper = store.placeIfAbsent("devices", "ABC", 1);

    assertEquals(1, upper.shardId(), "'ABC' is a new key, not 'abc'");
    assertEquals(0, store.lookup("devices", "abc").shardId());
    assertEquals(1, store.lookup("devices", "ABC").shardId());
    assertEquals(1, keyCount(store, 1));
  }

  @Test
  void placeIfAbsent_stringKeysDifferingInTrailingSpace_areDifferentKeys() throws SQLException {
    store.addShard(0, "jdbc:mysql://h0:3306/app", 1);
    store.addShard(1, "jdbc:mysql://h1:3306/app", 1);

    store.placeIfAbsent("devices", "k", 0);
    Placement spaced = store.placeIfAbsent("devices", "k ", 1);

    assertEquals(1, spaced.shardId(), "'k ' is a new key, not 'k'");
    assertEquals(0, store.lookup("devices", "k").shardId());
  }

  @Test
  void assign_placedKey_movesItAndAdjustsKeyCounts() throws SQLException {
    store.addShard(0, "jdbc:mysql://h0:3306/app", 1);
    store.addShard(1, "jdbc:mysql://h1:3306/app", 1);
    store.placeIfAbsent("users", "7", 0);
    store.placeIfAbsent("users", "8", 0);

    store.assign("users", "7", 1);

    Placement p = store.lookup("users", "7");
    assertEquals(1, p.shardId());
    assertEquals(KeyState.ACTIVE, p.state());
    assertEquals(2, p.version(), "a move bumps the version");
    assertEquals(1, keyCount(store, 0));
    assertEquals(1, keyCount(store, 1));
  }

  @Test
  void assign_newKey_placesItAndCountsIt() throws SQLException {
    store.addShard(0, "jdbc:mysql://h0:3306/app", 1);
    store.addShard(1, "jdbc:mysql://h1:3306/app", 1);

    store.assign("users", "9", 1);

    assertEquals(new Placement(1, KeyState.ACTIVE, 1), store.lookup("users", "9"));
    assertEquals(0, keyCount(store, 0));
    assertEquals(1, keyCount(store, 1));
  }

  @Test
  void assign_frozenKey_makesItActive() throws SQLException {
    store.addShard(0, "jdbc:mysql://h0:3306/app", 1);
    store.addShard(1, "jdbc:mysql://h1:3306/app", 1);
    store.placeIfAbsent("users", "7", 0);
    DirectoryTestSupport.update("UPDATE key_map SET state = 'FROZEN' WHERE keyspace = 'users' AND k = '7'");

    store.assign("users", "7", 1);

    assertEquals(KeyState.ACTIVE, store.lookup("users", "7").state());
    assertEquals(1, store.lookup("users", "7").shardId());
  }

  @Test
  void catalogAndKeyMapWrites_eachAppendToTheChangeLogInOrder() throws SQLException {
    long before = store.lastChange();

    store.addShard(0, "jdbc:mysql://h0:3306/app", 1);
    store.addShard(1, "jdbc:mysql://h1:3306/app", 1);
    store.setShardStatus(1, ShardStatus.READ_ONLY);
    store.addKeySpace(new KeySpace("users", KeyType.BIGINT, KeySpace.LEAST_LOADED));
    store.declareTable(TableDef.sharded("posts", "users", "author_id"));
    store.dropTable("posts");
    store.assign("users", "42", 0);
    store.assign("users", "42", 1);

    List<Change> changes = store.changesSince(before, 100);
    assertEquals(8, changes.size(), changes.toString());
    for (int i = 1; i < changes.size(); i++) {
      assertTrue(changes.get(i).id() > changes.get(i - 1).id(), "ids strictly increase: " + changes);
    }
    assertTrue(changes.get(0).id() > before);
    assertEquals(store.lastChange(), changes.get(changes.size() - 1).id());

    assertEquals(List.of(Change.Kind.SHARD, Change.Kind.SHARD, Change.Kind.SHARD, Change.Kind.KEYSPACE,
        Change.Kind.TABLE, Change.Kind.TABLE, Change.Kind.KEY, Change.Kind.KEY),
        changes.stream().map(Change::kind).toList());
    assertEquals("1", changes.get(2).ref(), "a shard change names the shard");
    assertEquals("users", changes.get(3).keySpace(), "a key space change names the key space");
    assertEquals("posts", changes.get(4).ref(), "a table change names the table");
    assertEquals("posts", changes.get(5).ref());
    assertEquals("users", changes.get(6).keySpace(), "a key change names key space and key");
    assertEquals("42", changes.get(6).key());
  }

  @Test
  void changesSince_limit_pagesThroughTheLog() throws SQLException {
    long before = store.lastChange();
    for (int i = 0; i < 5; i++) {
      store.addShard(i, "jdbc:mysql://h" + i + ":3306/app", 1);
    }

    List<Change> first = store.changesSince(before, 2);
    List<Change> rest = store.changesSince(first.get(1).id(), 100);

    assertEquals(2, first.size());
    assertEquals(3, rest.size());
    List<String> refs = new ArrayList<>();
    first.forEach(c -> refs.add(c.ref()));
    rest.forEach(c -> refs.add(c.ref()));
    assertEquals(List.of("0", "1", "2", "3", "4"), refs);
    assertTrue(store.changesSince(store.lastChange(), 100).isEmpty());
  }

  @Test
  void placeIfAbsent_sameKeyFromEightThreads_onePlacementCountedOnce() throws Exception {
    for (int i = 0; i < 8; i++) {
      store.addShard(i, "jdbc:mysql://h" + i + ":3306/app", 1);
    }
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      for (int round = 0; round < 5; round++) {
        String key = "race-" + round;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Placement>> results = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          int candidate = i;
          results.add(threads.submit(() -> {
            start.await();
            return store.placeIfAbsent("users", key, candidate);
          }));
        }
        start.countDown();
        Set<Integer> answers = new HashSet<>();
        for (Future<Placement> f : results) {
          Placement p = f.get(20, TimeUnit.SECONDS);
          assertEquals(KeyState.ACTIVE, p.state());
          answers.add(p.shardId());
        }
        assertEquals(1, answers.size(), "every caller gets the one placement that won: " + answers);
        int winner = answers.iterator().next();
        assertEquals(winner, store.lookup("users", key).shardId());
      }
      long total = store.shards().stream().mapToLong(Shard::keyCount).sum();
      assertEquals(5, total, "key_count grows once per key, not once per caller: " + store.shards());
      for (Shard s : store.shards()) {
        assertEquals(DirectoryTestSupport.scalar("SELECT COUNT(*) FROM key_map WHERE shard_id = ?", s.id()),
            Long.toString(s.keyCount()), "key_count of shard " + s.id() + " matches the key map");
      }
      assertEquals("5", DirectoryTestSupport.scalar("SELECT COUNT(*) FROM key_map WHERE keyspace = 'users'"));
    } finally {
      threads.shutdownNow();
    }
  }
}
