package dev.shardex.directory.placement;

import dev.shardex.directory.Directory;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.change.Change;
import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.MysqlError;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The rows a move keeps on a shard that does not own them, which key-less reads must not see: the
 * destination's copy from the pre-copy until the flip, and the source's rows from the flip until
 * they are deleted. Without this a scatter read between the pre-copy and the source delete counts a
 * moving key twice.
 *
 * <p>The mover announces each phase as a KEY change whose {@code ref} is {@code "move FROM TO
 * PHASE"} and waits for every client to acknowledge COPYING (before it writes the copy) and FLIPPED
 * (before it deletes the source). A client acknowledges those only once its key-less reads that
 * began before them have finished ({@link Directory#beginScatter}), and later reads exclude the
 * hidden rows; so no read both sees the copy and misses the exclusion. A client that starts mid-move
 * reads the phases from the move journal.
 */
public final class HiddenRows {
  static final String PREFIX = "move ";

  /** The phases a move announces; the first two are acknowledged before the mover goes on. */
  enum Phase {
    COPYING, FLIPPED, DONE, ABORTED;

    boolean awaited() {
      return this == COPYING || this == FLIPPED;
    }
  }

  /** key space -> key -> the shard whose rows of the key are hidden. */
  private final Map<String, Map<String, Integer>> hidden = new ConcurrentHashMap<>();

  static String ref(int from, int to, Phase phase) {
    return PREFIX + from + " " + to + " " + phase.name();
  }

  /** The phase a KEY change announces, or null for an ordinary key change. */
  public static Phase phase(Change change) {
    String ref = change.ref();
    if (change.kind() != Change.Kind.KEY || ref == null || !ref.startsWith(PREFIX)) {
      return null;
    }
    return Phase.valueOf(ref.substring(ref.lastIndexOf(' ') + 1));
  }

  public void apply(Change change) {
    Phase phase = phase(change);
    if (phase == null) {
      return;
    }
    String[] parts = change.ref().split(" ");
    int from = Integer.parseInt(parts[1]);
    int to = Integer.parseInt(parts[2]);
    Map<String, Integer> keys = hidden.computeIfAbsent(change.keySpace(), k -> new ConcurrentHashMap<>());
    switch (phase) {
      case COPYING -> keys.put(change.key(), to);
      case FLIPPED -> keys.put(change.key(), from);
      case DONE, ABORTED -> keys.remove(change.key());
    }
  }

  /** Loads the moves under way when this client starts (their phases from the journal). */
  public void load(DirectoryStore store) throws SQLException {
    try {
      loadJournal(store);
    } catch (SQLException e) {
      if (ErrorKind.server(e) != MysqlError.NO_SUCH_TABLE) { // no move journal yet: nothing is moving
        throw e;
      }
    }
  }

  private void loadJournal(DirectoryStore store) throws SQLException {
    try (Connection c = store.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT keyspace, k, from_shard, to_shard, step FROM moves "
            + "WHERE step NOT IN ('PLANNED', 'DONE', 'ABORTED')");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        String step = rs.getString(5);
        boolean flipped = List.of("FLIPPED", "FLIP_DRAINED", "DELETING", "STOPPED").contains(step);
        hidden.computeIfAbsent(rs.getString(1), k -> new ConcurrentHashMap<>())
            .put(rs.getString(2), flipped ? rs.getInt(3) : rs.getInt(4));
      }
    }
  }

  /** Whether a move this client knows of is under way (between its COPYING and its DONE or ABORTED). */
  /** Keys some move keeps hidden on a shard now: each is a move under way. */
  public int count() {
    int n = 0;
    for (Map<String, Integer> keys : hidden.values()) {
      n += keys.size();
    }
    return n;
  }

  public boolean any() {
    for (Map<String, Integer> keys : hidden.values()) {
      if (!keys.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** For one key space: shard -> the keys whose rows on it are hidden (a snapshot). */
  Map<Integer, List<String>> snapshot(String keySpace) {
    Map<String, Integer> keys = hidden.get(keySpace);
    Map<Integer, List<String>> byShard = new TreeMap<>();
    if (keys != null) {
      keys.forEach((key, shard) -> byShard.computeIfAbsent(shard, s -> new java.util.ArrayList<>()).add(key));
    }
    return byShard;
  }
}
