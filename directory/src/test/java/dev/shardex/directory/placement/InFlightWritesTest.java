package dev.shardex.directory.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.Directory;
import dev.shardex.directory.DirectoryOptions;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.DirectoryTestSupport;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The move protocol's ack with striped in-flight writes, against a real directory: a change is
 * acknowledged only once the writes that began before this client applied it have ended; writes
 * that began after it never hold it up; a write to another key of the same stripe only delays it.
 */
class InFlightWritesTest {
  private static final String KS = "users";

  private DirectoryStore store;
  private Directory directory;

  @BeforeEach
  void twoShards() throws SQLException {
    store = DirectoryTestSupport.freshStore();
    store.addKeySpace(new KeySpace(KS, KeyType.BIGINT, KeySpace.LEAST_LOADED));
    store.addShard(0, DirectoryTestSupport.sandbox().shardUrl(0), 1);
    store.addShard(1, DirectoryTestSupport.sandbox().shardUrl(1), 1);
    directory = Directory.open(store, DirectoryOptions.defaults().withAutoPoll(false), "inflight");
  }

  @AfterEach
  void close() {
    directory.close();
  }

  private long acknowledged() throws SQLException {
    return Long.parseLong(DirectoryTestSupport.scalar("SELECT applied_change FROM clients WHERE id = ?",
        directory.clientId()));
  }

  private KeyMarks write(long key) throws SQLException {
    KeyMarks marks = new KeyMarks();
    directory.routeWrite(KS, key, Directory.WriteMode.PLACE, marks, List.of());
    assertTrue(marks.hasWrites());
    return marks;
  }

  /** Reassigns the key in the store (a KEY change in the log) and returns the change's id. */
  private long change(long key) throws SQLException {
    int now = directory.routeRead(KS, key).shardId();
    store.assign(KS, Long.toString(key), 1 - now);
    return store.lastChange();
  }

  @Test
  void aWriteBegunBeforeAChange_holdsItsAck_untilItEnds() throws SQLException {
    KeyMarks before = write(42);
    long change = change(42);

    directory.pollNow();
    assertEquals(change - 1, acknowledged(), "the write that began before the change holds its ack");
    directory.pollNow();
    assertEquals(change - 1, acknowledged(), "still in flight: still held");

    before.releaseWrites();
    directory.pollNow();
    assertEquals(change, acknowledged());
  }

  @Test
  void writesBegunAfterAChangeWasApplied_neverHoldItUp() throws SQLException {
    KeyMarks before = write(42);
    long change = change(42);
    directory.pollNow(); // applied: writes from now on saw it
    KeyMarks after = write(42);
    List<AutoCloseable> asGuards = new ArrayList<>();
    directory.routeWrite(KS, 42L, Directory.WriteMode.PLACE, asGuards); // an object guard (a transaction's)

    before.releaseWrites();
    directory.pollNow();
    assertEquals(change, acknowledged(), "a key written without pause still gets its change acknowledged");

    after.releaseWrites();
    Directory.release(asGuards);
  }

  @Test
  void aWriteToAnotherKeyOfTheSameStripe_onlyDelaysTheAck() throws SQLException {
    long other = 43;
    while (InFlightWrites.stripe(KS, other) != InFlightWrites.stripe(KS, 42L)) {
      other++;
    }
    write(42).releaseWrites(); // placed
    KeyMarks neighbour = write(other);
    long change = change(42);

    directory.pollNow();
    assertEquals(change - 1, acknowledged(), "a collision makes the mover wait for the neighbour's write");

    neighbour.releaseWrites();
    directory.pollNow();
    assertEquals(change, acknowledged());
  }

  @Test
  void aGuardHeldAsAnObject_holdsOnlyItsOwnKeysChange() throws SQLException {
    long other = 43;
    while (InFlightWrites.stripe(KS, other) != InFlightWrites.stripe(KS, 42L)) {
      other++;
    }
    write(42).releaseWrites();
    List<AutoCloseable> ownKey = new ArrayList<>(); // as a transaction keeps its writes
    directory.routeWrite(KS, 42L, Directory.WriteMode.EXISTING, ownKey);
    List<AutoCloseable> neighbour = new ArrayList<>();
    directory.routeWrite(KS, other, Directory.WriteMode.PLACE, neighbour);
    long change = change(42);

    directory.pollNow();
    assertEquals(change - 1, acknowledged(), "the transaction's write to the key holds the ack");
    Directory.release(ownKey);
    directory.pollNow();
    assertEquals(change, acknowledged(), "a transaction holding another key of the stripe does not");
    Directory.release(neighbour);
  }

  @Test
  void aKeysTextAndItsLong_shareAStripe() {
    for (long k : new long[] {0, 7, -7, 42, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, 1234567890123L}) {
      assertEquals(InFlightWrites.stripe(KS, k), InFlightWrites.stripe(KS, Long.toString(k)), "key " + k);
      assertTrue(InFlightWrites.spellsLong(Long.toString(k)));
    }
    for (String text : new String[] {"007", "-0", "", "-", "9223372036854775808", "-9223372036854775809", "1e3", "+1"}) {
      assertFalse(InFlightWrites.spellsLong(text), text);
    }
  }

  @Test
  void guardsCloseOnce_andReadMarksSeeAMovedKey() throws SQLException {
    write(42).releaseWrites();
    List<AutoCloseable> guards = new ArrayList<>();
    directory.routeWrite(KS, 42L, Directory.WriteMode.EXISTING, guards);
    Directory.release(guards);
    Directory.release(guards); // twice: counted down once
    KeyMarks still = write(42);
    KeyMarks read = new KeyMarks();
    directory.routeRead(KS, 42L, read);
    assertTrue(read.current());
    long change = change(42);

    directory.pollNow();
    assertFalse(read.current(), "the key moved while the read ran: route and read again");
    assertEquals(change - 1, acknowledged(), "the write in flight still holds the ack (a double close did not count it out)");
    still.releaseWrites();
    directory.pollNow();
    assertEquals(change, acknowledged());
  }
}
