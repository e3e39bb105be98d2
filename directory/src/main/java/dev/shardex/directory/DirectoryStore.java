package dev.shardex.directory;

import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.catalog.ShardStatus;
import dev.shardex.directory.change.Change;
import dev.shardex.directory.lookup.ClaimPool;
import dev.shardex.directory.lookup.LookupClaim;
import dev.shardex.directory.placement.HiddenRows;
import dev.shardex.directory.placement.KeyState;
import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The directory database, read and written over plain JDBC, with no caching: the authority that
 * {@link Directory} caches. Every catalog write and every change to an existing key's placement
 * appends to the change log in the same transaction, so a driver that polls the log sees every
 * change, in order. Placing a new key is not logged: drivers never cache a key's absence.
 */
public final class DirectoryStore {
  private final DataSource dataSource;
  private final ClaimPool claims;

  public DirectoryStore(DataSource dataSource) {
    this(dataSource, null);
  }

  DirectoryStore(DataSource dataSource, ClaimPool claims) {
    this.dataSource = dataSource;
    this.claims = claims;
  }

  public DataSource dataSource() {
    return dataSource;
  }

  /**
   * A connection for a {@link LookupClaim}, in autocommit: from the claims pool when this store has
   * one, else from the directory pool. It goes back through {@link #release}.
   */
  Connection claimConnection() throws SQLException {
    if (claims != null) {
      return claims.connection();
    }
    try {
      return dataSource.getConnection();
    } catch (SQLException e) {
      throw named(e);
    }
  }

  /**
   * Gives a claim's connection back, after releasing its value locks when it took any
   * ({@code locked}): on the claims pool's own thread when this store has one (the claimer does not
   * wait for that round trip), else here. A connection whose release failed is closed for good, so
   * no lock goes back to a pool with it.
   */
  void release(Connection c, boolean locked) {
    if (claims != null) {
      claims.release(c, locked);
    } else {
      ClaimPool.unlockAndReturn(c, locked, dataSource instanceof com.zaxxer.hikari.HikariDataSource h ? h : null);
    }
  }

  /** Closes the claims pool, if this store has one (the directory pool is its owner's to close). */
  void closeClaims() {
    if (claims != null) {
      claims.close();
    }
  }

  public void init() throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      DirectorySchema.init(c);
    }
  }

  // ---- shards ---------------------------------------------------------------------------------

  public void addShard(int id, String url, double weight) throws SQLException {
    inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO shards (id, url, weight) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE url = VALUES(url), weight = VALUES(weight)")) {
        ps.setInt(1, id);
        ps.setString(2, Redact.url(url));
        ps.setDouble(3, weight);
        ps.executeUpdate();
      }
      logChange(c, Change.Kind.SHARD, null, null, Integer.toString(id));
      return null;
    });
  }

  public void setShardStatus(int id, ShardStatus status) throws SQLException {
    inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement("UPDATE shards SET status = ? WHERE id = ?")) {
        ps.setString(1, status.name());
        ps.setInt(2, id);
        if (ps.executeUpdate() == 0) {
          throw ShardexError.UNKNOWN_SHARD.exception(id);
        }
      }
      logChange(c, Change.Kind.SHARD, null, null, Integer.toString(id));
      return null;
    });
  }

  public List<Shard> shards() throws SQLException {
    return query("SELECT id, url, status, weight, key_count FROM shards ORDER BY id", ps -> {}, rs -> new Shard(
        rs.getInt(1), rs.getString(2), ShardStatus.valueOf(rs.getString(3)), rs.getDouble(4), rs.getLong(5)));
  }

  // ---- key spaces and tables --------------------------------------------------------------------

  public void addKeySpace(KeySpace keySpace) throws SQLException {
    inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO keyspaces (name, key_type, placement) VALUES (?, ?, ?) "
              + "ON DUPLICATE KEY UPDATE key_type = VALUES(key_type), placement = VALUES(placement)")) {
        ps.setString(1, keySpace.name());
        ps.setString(2, keySpace.keyType().name());
        ps.setString(3, keySpace.placement());
        ps.executeUpdate();
      }
      logChange(c, Change.Kind.KEYSPACE, keySpace.name(), null, null);
      return null;
    });
  }

  public List<KeySpace> keySpaces() throws SQLException {
    return query("SELECT name, key_type, placement FROM keyspaces ORDER BY name", ps -> {},
        rs -> new KeySpace(rs.getString(1), KeyType.valueOf(rs.getString(2)), rs.getString(3)));
  }

  public KeySpace keySpace(String name) throws SQLException {
    List<KeySpace> found = query("SELECT name, key_type, placement FROM keyspaces WHERE name = ?",
        ps -> ps.setString(1, name), rs -> new KeySpace(rs.getString(1), KeyType.valueOf(rs.getString(2)), rs.getString(3)));
    return found.isEmpty() ? null : found.get(0);
  }

  public void declareTable(TableDef table) throws SQLException {
    if (table.kind() == TableKind.SHARDED && keySpace(table.keySpace()) == null) {
      throw ShardexError.BAD_DECLARATION.exception("of table " + table.name(),
          "key space '" + table.keySpace() + "' does not exist; add it with 'shardex keyspaces add'");
    }
    inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO logical_tables (name, kind, keyspace, key_column, home_shard) VALUES (?, ?, ?, ?, ?) "
              + "ON DUPLICATE KEY UPDATE kind = VALUES(kind), keyspace = VALUES(keyspace), "
              + "key_column = VALUES(key_column), home_shard = VALUES(home_shard)")) {
        ps.setString(1, table.name());
        ps.setString(2, table.kind().name());
        ps.setString(3, table.keySpace());
        ps.setString(4, table.keyColumn());
        ps.setObject(5, table.homeShard());
        ps.executeUpdate();
      }
      logChange(c, Change.Kind.TABLE, null, null, table.name());
      return null;
    });
  }

  public void dropTable(String name) throws SQLException {
    inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM logical_tables WHERE name = ?")) {
        ps.setString(1, name);
        ps.executeUpdate();
      }
      logChange(c, Change.Kind.TABLE, null, null, name);
      return null;
    });
  }

  public TableDef table(String name) throws SQLException {
    List<TableDef> found = query(
        "SELECT name, kind, keyspace, key_column, home_shard FROM logical_tables WHERE name = ?",
        ps -> ps.setString(1, name), DirectoryStore::tableDef);
    return found.isEmpty() ? null : found.get(0);
  }

  public List<TableDef> tables() throws SQLException {
    return query("SELECT name, kind, keyspace, key_column, home_shard FROM logical_tables ORDER BY name",
        ps -> {}, DirectoryStore::tableDef);
  }

  private static TableDef tableDef(ResultSet rs) throws SQLException {
    int home = rs.getInt(5);
    Integer homeShard = rs.wasNull() ? null : home;
    return new TableDef(rs.getString(1), TableKind.valueOf(rs.getString(2)), rs.getString(3), rs.getString(4), homeShard);
  }

  // ---- the key map ------------------------------------------------------------------------------

  public Placement lookup(String keySpace, String key) throws SQLException {
    List<Placement> found = query("SELECT shard_id, state, version FROM key_map WHERE keyspace = ? AND k = ?", ps -> {
      ps.setString(1, keySpace);
      ps.setString(2, key);
    }, rs -> new Placement(rs.getInt(1), KeyState.valueOf(rs.getString(2)), rs.getLong(3)));
    return found.isEmpty() ? null : found.get(0);
  }

  /**
   * Places a new key on {@code shardId} unless some other driver placed it first; either way
   * returns the placement that won. INSERT IGNORE on the primary key is the arbiter.
   */
  public Placement placeIfAbsent(String keySpace, String key, int shardId) throws SQLException {
    boolean inserted = inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT IGNORE INTO key_map (keyspace, k, shard_id, state, version) VALUES (?, ?, ?, 'ACTIVE', 1)")) {
        ps.setString(1, keySpace);
        ps.setString(2, key);
        ps.setInt(3, shardId);
        if (ps.executeUpdate() == 0) {
          return false;
        }
      }
      adjustKeyCount(c, shardId, 1);
      return true;
    });
    if (inserted) {
      return new Placement(shardId, KeyState.ACTIVE, 1);
    }
    Placement winner = lookup(keySpace, key);
    if (winner == null) {
      throw ShardexError.DIRECTORY_STATE.exception("key '" + key + "' of key space " + keySpace
          + " was neither placed nor found in the key map; check the directory's key_map table");
    }
    return winner;
  }

  /** Puts a key on a shard (new or not), as an administrator does: logged, so caches drop it. */
  public void assign(String keySpace, String key, int shardId) throws SQLException {
    inTransaction(c -> {
      Integer previous = null;
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT shard_id FROM key_map WHERE keyspace = ? AND k = ? FOR UPDATE")) {
        ps.setString(1, keySpace);
        ps.setString(2, key);
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            previous = rs.getInt(1);
          }
        }
      }
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO key_map (keyspace, k, shard_id, state, version) VALUES (?, ?, ?, 'ACTIVE', 1) "
              + "ON DUPLICATE KEY UPDATE shard_id = VALUES(shard_id), state = 'ACTIVE', version = version + 1")) {
        ps.setString(1, keySpace);
        ps.setString(2, key);
        ps.setInt(3, shardId);
        ps.executeUpdate();
      }
      if (previous != null) {
        adjustKeyCount(c, previous, -1);
      }
      adjustKeyCount(c, shardId, 1);
      logChange(c, Change.Kind.KEY, keySpace, key, null);
      return null;
    });
  }

  private static void adjustKeyCount(Connection c, int shardId, int delta) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE shards SET key_count = key_count + ? WHERE id = ?")) {
      ps.setInt(1, delta);
      ps.setInt(2, shardId);
      ps.executeUpdate();
    }
  }

  // ---- the change log and clients --------------------------------------------------------------

  /**
   * Appends a change inside the caller's transaction; the counter row lock orders commits. The new
   * id comes back in the UPDATE's own answer (LAST_INSERT_ID(expr) sets the OK packet's insert id,
   * which JDBC returns as its generated key): no SELECT LAST_INSERT_ID() round trip.
   */
  static long logChange(Connection c, Change.Kind kind, String keySpace, String key, String ref) throws SQLException {
    long id;
    try (Statement s = c.createStatement()) {
      s.executeUpdate("UPDATE change_counter SET last_change = LAST_INSERT_ID(last_change + 1) WHERE id = 1",
          Statement.RETURN_GENERATED_KEYS);
      id = counted(s);
    }
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO changes (id, kind, keyspace, k, ref) VALUES (?, ?, ?, ?, ?)")) {
      ps.setLong(1, id);
      ps.setString(2, kind.name());
      ps.setString(3, keySpace);
      ps.setString(4, key);
      ps.setString(5, ref);
      ps.executeUpdate();
    }
    return id;
  }

  /** The counter's new value: the UPDATE's generated key, else (a driver that does not report it) read back. */
  private static long counted(Statement s) throws SQLException {
    try (ResultSet keys = s.getGeneratedKeys()) {
      if (keys.next() && keys.getLong(1) > 0) {
        return keys.getLong(1);
      }
    }
    try (ResultSet rs = s.executeQuery("SELECT LAST_INSERT_ID()")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  public long lastChange() throws SQLException {
    return query("SELECT last_change FROM change_counter WHERE id = 1", ps -> {}, rs -> rs.getLong(1)).get(0);
  }

  public List<Change> changesSince(long after, int limit) throws SQLException {
    return query("SELECT id, kind, keyspace, k, ref FROM changes WHERE id > ? ORDER BY id LIMIT ?", ps -> {
      ps.setLong(1, after);
      ps.setInt(2, limit);
    }, rs -> new Change(rs.getLong(1), Change.Kind.valueOf(rs.getString(2)), rs.getString(3), rs.getString(4), rs.getString(5)));
  }

  /** One statement in autocommit (atomic by itself): a driver's start-up pays one round trip for it, not four. */
  public void registerClient(String clientId, String info, long appliedChange) throws SQLException {
    try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
        "INSERT INTO clients (id, info, applied_change) VALUES (?, ?, ?) "
            + "ON DUPLICATE KEY UPDATE heartbeat_at = CURRENT_TIMESTAMP(6), applied_change = VALUES(applied_change)")) {
      ps.setString(1, clientId);
      ps.setString(2, info);
      ps.setLong(3, appliedChange);
      ps.executeUpdate();
    } catch (SQLException e) {
      throw named(e);
    }
  }

  /** Records that a client has applied every change up to {@code appliedChange}, by the directory's clock. */
  public void heartbeat(Connection c, String clientId, long appliedChange) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "UPDATE clients SET heartbeat_at = CURRENT_TIMESTAMP(6), applied_change = ? WHERE id = ?")) {
      ps.setLong(1, appliedChange);
      ps.setString(2, clientId);
      ps.executeUpdate();
    }
  }

  public void removeClient(String clientId) throws SQLException {
    inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM clients WHERE id = ?")) {
        ps.setString(1, clientId);
        ps.executeUpdate();
      }
      return null;
    });
  }

  // ---- moves: key states, acks, keys per shard (the mover's and the CLI's side) -----------------

  /** A driver instance as the clients table knows it; {@code heartbeatAgeMs} by the directory's clock. */
  public record ClientState(String id, String info, long appliedChange, long heartbeatAgeMs) {}

  /** One key-map row. */
  public record KeyEntry(String key, int shardId, KeyState state) {}

  /**
   * Freezes a key for a move, inside the caller's transaction (the mover journals the step in the
   * same one). Compare-and-set: only a key ACTIVE on {@code from} freezes. Returns the change id
   * every live client must apply before the key's rows may be copied.
   */
  public long freezeKey(Connection c, String keySpace, String key, int from) throws SQLException {
    return changeKeyState(c, keySpace, key, from, KeyState.ACTIVE, from, KeyState.FROZEN);
  }

  /** Flips a FROZEN key from {@code from} to {@code to}, ACTIVE; moves the key counts along. */
  public long flipKey(Connection c, String keySpace, String key, int from, int to) throws SQLException {
    long change = changeKeyState(c, keySpace, key, from, KeyState.FROZEN, to, KeyState.ACTIVE);
    // Lower shard id first: two flips in opposite directions must take the shard rows in one order.
    adjustKeyCount(c, Math.min(from, to), from < to ? -1 : 1);
    adjustKeyCount(c, Math.max(from, to), from < to ? 1 : -1);
    return change;
  }

  /**
   * Rolls a move back: a key FROZEN on {@code from} becomes ACTIVE there again. Idempotent: a key
   * already ACTIVE on {@code from} is left alone and 0 returned; any other state is refused.
   */
  public long unfreezeKey(Connection c, String keySpace, String key, int from) throws SQLException {
    Placement now = lockKey(c, keySpace, key);
    if (now != null && now.shardId() == from && now.state() == KeyState.ACTIVE) {
      return 0;
    }
    return changeKeyState(c, keySpace, key, from, KeyState.FROZEN, from, KeyState.ACTIVE);
  }

  private long changeKeyState(Connection c, String keySpace, String key, int from, KeyState fromState, int to,
      KeyState toState) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE key_map SET shard_id = ?, state = ?, version = version + 1 "
        + "WHERE keyspace = ? AND k = ? AND shard_id = ? AND state = ?")) {
      ps.setInt(1, to);
      ps.setString(2, toState.name());
      ps.setString(3, keySpace);
      ps.setString(4, key);
      ps.setInt(5, from);
      ps.setString(6, fromState.name());
      if (ps.executeUpdate() == 0) {
        Placement now = lockKey(c, keySpace, key);
        throw ShardexError.MOVE_REFUSED.exception(key, keySpace, "expected it " + fromState + " on shard " + from
            + " but the directory has " + (now == null ? "no such key" : now.state() + " on shard " + now.shardId()));
      }
    }
    return logChange(c, Change.Kind.KEY, keySpace, key, null);
  }

  /**
   * Announces a move's phase for a key, inside the caller's transaction: which shard's rows of the
   * key key-less reads must not see (see HiddenRows). Returns the change id.
   */
  public long announceMove(Connection c, String keySpace, String key, int from, int to, String phase) throws SQLException {
    return logChange(c, Change.Kind.KEY, keySpace, key, HiddenRows.ref(from, to, HiddenRows.Phase.valueOf(phase)));
  }

  /** Reads a key's placement with a row lock, inside the caller's transaction. */
  public Placement lockKey(Connection c, String keySpace, String key) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT shard_id, state, version FROM key_map WHERE keyspace = ? AND k = ? FOR UPDATE")) {
      ps.setString(1, keySpace);
      ps.setString(2, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? new Placement(rs.getInt(1), KeyState.valueOf(rs.getString(2)), rs.getLong(3)) : null;
      }
    }
  }

  /**
   * Live clients that have not applied {@code change} yet. A client whose heartbeat is older than
   * {@code staleAfterMs} by the directory's clock has lost its lease (it refuses writes on its own)
   * and is not listed: waiting for it would wait forever.
   */
  public List<ClientState> clientsBehind(long change, long staleAfterMs) throws SQLException {
    return query("SELECT id, info, applied_change, TIMESTAMPDIFF(MICROSECOND, heartbeat_at, NOW(6)) DIV 1000 FROM clients "
        + "WHERE applied_change < ? AND heartbeat_at >= NOW(6) - INTERVAL ? MICROSECOND ORDER BY id", ps -> {
          ps.setLong(1, change);
          ps.setLong(2, staleAfterMs * 1000);
        }, rs -> new ClientState(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4)));
  }

  public List<ClientState> clients() throws SQLException {
    return query("SELECT id, info, applied_change, TIMESTAMPDIFF(MICROSECOND, heartbeat_at, NOW(6)) DIV 1000 FROM clients "
        + "ORDER BY id", ps -> {}, rs -> new ClientState(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4)));
  }

  /** Up to {@code limit} ACTIVE keys of a key space on one shard, in key order (what 'users move --count' moves). */
  public List<String> activeKeysOn(String keySpace, int shardId, int limit) throws SQLException {
    return query("SELECT k FROM key_map WHERE keyspace = ? AND shard_id = ? AND state = 'ACTIVE' ORDER BY k LIMIT ?", ps -> {
      ps.setString(1, keySpace);
      ps.setInt(2, shardId);
      ps.setInt(3, limit);
    }, rs -> rs.getString(1));
  }

  /** The whole key map of a key space, streamed (verify and rebalance read it once). */
  public void forEachKey(String keySpace, java.util.function.Consumer<KeyEntry> sink) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT k, shard_id, state FROM key_map WHERE keyspace = ?",
            ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
      ps.setString(1, keySpace);
      ps.setFetchSize(Integer.MIN_VALUE); // Connector/J: stream rows instead of buffering the key map
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          sink.accept(new KeyEntry(rs.getString(1), rs.getInt(2), KeyState.valueOf(rs.getString(3))));
        }
      }
    }
  }

  /**
   * Removes a shard from the catalog, refused while the key map places any key on it or a SINGLE
   * table lives there: its rows would become unreachable.
   */
  public void removeShard(int id) throws SQLException {
    inTransaction(c -> {
      long keys = count(c, "SELECT COUNT(*) FROM key_map WHERE shard_id = ?", id);
      long singles = count(c, "SELECT COUNT(*) FROM logical_tables WHERE kind = 'SINGLE' AND home_shard = ?", id);
      if (keys > 0 || singles > 0) {
        throw ShardexError.SHARD_NOT_EMPTY.exception(id,
            keys > 0 ? keys + " key(s)" : singles + " SINGLE table(s) (re-declare them on another shard)", id);
      }
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM shards WHERE id = ?")) {
        ps.setInt(1, id);
        if (ps.executeUpdate() == 0) {
          throw ShardexError.UNKNOWN_SHARD.exception(id);
        }
      }
      logChange(c, Change.Kind.SHARD, null, null, Integer.toString(id));
      return null;
    });
  }

  /** Sets a shard's weight (placement and rebalance targets follow it); logged like every catalog change. */
  public void setShardWeight(int id, double weight) throws SQLException {
    inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement("UPDATE shards SET weight = ? WHERE id = ?")) {
        ps.setDouble(1, weight);
        ps.setInt(2, id);
        if (ps.executeUpdate() == 0) {
          throw ShardexError.UNKNOWN_SHARD.exception(id);
        }
      }
      logChange(c, Change.Kind.SHARD, null, null, Integer.toString(id));
      return null;
    });
  }

  private static long count(Connection c, String sql, int arg) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setInt(1, arg);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  // ---- plumbing ----------------------------------------------------------------------------------

  /** A unit of directory work inside one transaction. */
  public interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  interface Binder {
    void bind(PreparedStatement ps) throws SQLException;
  }

  interface RowMapper<T> {
    T map(ResultSet rs) throws SQLException;
  }

  /** Runs the work in one transaction, run again by {@link Retry}'s policy when MySQL picks it as a deadlock victim. */
  public <T> T inTransaction(Work<T> work) throws SQLException {
    try {
      return Retry.onDeadlock(() -> inTransactionOnce(work));
    } catch (SQLException e) {
      throw named(e);
    }
  }

  private <T> T inTransactionOnce(Work<T> work) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        T result = work.run(c);
        c.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  /** Runs the work on one connection in autocommit: each statement is its own transaction. */
  <T> T autocommit(Work<T> work) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      return work.run(c);
    } catch (SQLException e) {
      throw named(e);
    }
  }

  <T> List<T> query(String sql, Binder binder, RowMapper<T> mapper) throws SQLException {
    try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(ps);
      try (ResultSet rs = ps.executeQuery()) {
        List<T> rows = new ArrayList<>();
        while (rs.next()) {
          rows.add(mapper.map(rs));
        }
        return rows;
      }
    } catch (SQLException e) {
      throw named(e);
    }
  }

  /**
   * A directory that cannot be reached while a statement runs (placing a new key, a sequence block, a
   * declaration) is SHX1406, SQLState 57S01: not class 08, so a pool in front of Shardex keeps the
   * application's connection, which works again once the directory answers.
   */
  private SQLException named(SQLException e) {
    if (ErrorKind.of(e) != ErrorKind.CONNECTION_LOST) {
      return e;
    }
    String where = dataSource instanceof com.zaxxer.hikari.HikariDataSource h ? Redact.url(h.getJdbcUrl()) : "database";
    String message = e.getMessage() == null ? "no message" : e.getMessage().lines().findFirst().orElse("");
    return ShardexError.DIRECTORY_UNREACHABLE.withCause(e, where, message);
  }
}
