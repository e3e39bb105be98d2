package dev.shardex.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.shardex.directory.placement.KeyPlacer;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A what-if directory (shardex analyze) places unknown keys by its placer, in memory; a driver's never does. */
class WhatIfDirectoryTest {
  private DirectoryStore store;

  @BeforeEach
  void emptyDirectory() throws SQLException {
    store = DirectoryTestSupport.freshStore();
    store.addKeySpace(new KeySpace("default", KeyType.BIGINT, KeySpace.LEAST_LOADED));
    store.addShard(0, DirectoryTestSupport.sandbox().shardUrl(0), 1.0);
    store.addShard(1, DirectoryTestSupport.sandbox().shardUrl(1), 1.0);
  }

  @Test
  void openWhatIf_unknownKeys_placedByThePlacer_keyMapUntouched() throws SQLException {
    AtomicInteger asked = new AtomicInteger();
    KeyPlacer odd = (keySpace, key) -> {
      asked.incrementAndGet();
      return (int) ((Long) key % 2);
    };
    try (Directory d = Directory.openWhatIf(store, DirectoryOptions.defaults().withAutoPoll(false), "whatif", odd)) {
      assertEquals(1, d.routeRead("default", 7L).shardId());
      assertEquals(0, d.routeWrite("default", 8L, false).shardId());
      assertEquals(1, d.routeRead("default", 7L).shardId());
      assertEquals(2, asked.get(), "a placement is cached like a key map row");
    }
    assertNull(store.lookup("default", "7"));
    assertNull(store.lookup("default", "8"));
  }

  @Test
  void open_withoutAPlacer_unknownKeyReadIsNull() throws SQLException {
    try (Directory d = Directory.open(store, DirectoryOptions.defaults().withAutoPoll(false), "plain")) {
      assertNull(d.routeRead("default", 7L));
    }
  }
}
