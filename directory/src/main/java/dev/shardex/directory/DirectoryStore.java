package dev.shardex.directory;

import dev.shardex.directory.catalog.CatalogStore;
import dev.shardex.directory.catalog.Replica;
import dev.shardex.directory.catalog.ReplicaStore;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.catalog.ShardStatus;
import dev.shardex.directory.change.Change;
import dev.shardex.directory.change.ChangeLog;
import dev.shardex.directory.client.ClientStore;
import dev.shardex.directory.lookup.ClaimPool;
import dev.shardex.directory.lookup.LookupClaim;
import dev.shardex.directory.placement.KeyMapStore;
import dev.shardex.directory.placement.KeyState;
import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The directory database, read and written over plain JDBC, with no caching: the authority that
 * {@link Directory} caches. Every catalog write and every change to an existing key's placement
 * appends to the change log in the same transaction, so a driver that polls the log sees every
 * change, in order. Placing a new key is not logged: drivers never cache a key's absence.
 *
 * <p>One store per group of tables does the SQL: {@link CatalogStore} (shards, key spaces, tables), {@link ReplicaStore} (the shards' replicas),
 * {@link KeyMapStore} (the key map and moves' key states), {@link ChangeLog} and {@link ClientStore}
 * (heartbeats and acknowledgements); the lookup, sequence and XA stores live with their packages. This
 * class is what they share: the connections, one transaction with its deadlock retry ({@link Retry}), a
 * query, and the directory's errors named (SHX1406).
 */
public final class DirectoryStore {
  private final DataSource dataSource;
  private final ClaimPool claims;
  private final CatalogStore catalog = new CatalogStore(this);
  private final ReplicaStore replicas = new ReplicaStore(this);
  private final KeyMapStore keyMap = new KeyMapStore(this);
  private final ChangeLog changes = new ChangeLog(this);
  private final ClientStore clients = new ClientStore(this);

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
  public Connection claimConnection() throws SQLException {
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
  public void release(Connection c, boolean locked) {
    if (claims != null) {
      claims.release(c, locked);
    } else {
      ClaimPool.unlockAndReturn(c, locked, dataSource instanceof com.zaxxer.hikari.HikariDataSource h ? h : null);
    }
  }

  /** Closes the claims pool, if this store has one (the directory pool is its owner's to close). */
  public void closeClaims() {
    if (claims != null) {
      claims.close();
    }
  }

  public void init() throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      DirectorySchema.init(c);
    }
  }

  /** A driver instance as the clients table knows it; {@code heartbeatAgeMs} by the directory's clock. */
  public record ClientState(String id, String info, long appliedChange, long heartbeatAgeMs) {}

  /** One key-map row. */
  public record KeyEntry(String key, int shardId, KeyState state) {}

  // ---- the tables, one store per group: these delegate so callers name one store -------------

  // the catalog (CatalogStore)
  public void addShard(int id, String url, double weight) throws SQLException {
    catalog.addShard(id, url, weight);
  }

  public void setShardStatus(int id, ShardStatus status) throws SQLException {
    catalog.setShardStatus(id, status);
  }

  public List<Shard> shards() throws SQLException {
    return catalog.shards();
  }

  public void addKeySpace(KeySpace keySpace) throws SQLException {
    catalog.addKeySpace(keySpace);
  }

  public List<KeySpace> keySpaces() throws SQLException {
    return catalog.keySpaces();
  }

  public KeySpace keySpace(String name) throws SQLException {
    return catalog.keySpace(name);
  }

  public void declareTable(TableDef table) throws SQLException {
    catalog.declareTable(table);
  }

  public void dropTable(String name) throws SQLException {
    catalog.dropTable(name);
  }

  public TableDef table(String name) throws SQLException {
    return catalog.table(name);
  }

  public List<TableDef> tables() throws SQLException {
    return catalog.tables();
  }

  public void removeShard(int id) throws SQLException {
    catalog.removeShard(id);
  }

  public void setShardWeight(int id, double weight) throws SQLException {
    catalog.setShardWeight(id, weight);
  }

  // the replica catalog (ReplicaStore)
  public int addReplica(int shardId, String url, double weight) throws SQLException {
    return replicas.addReplica(shardId, url, weight);
  }

  public void removeReplica(int shardId, int replicaId) throws SQLException {
    replicas.removeReplica(shardId, replicaId);
  }

  public List<Replica> replicas() throws SQLException {
    return replicas.replicas();
  }

  // the key map (KeyMapStore)
  public Placement lookup(String keySpace, String key) throws SQLException {
    return keyMap.lookup(keySpace, key);
  }

  public Placement placeIfAbsent(String keySpace, String key, int shardId) throws SQLException {
    return keyMap.placeIfAbsent(keySpace, key, shardId);
  }

  public void assign(String keySpace, String key, int shardId) throws SQLException {
    keyMap.assign(keySpace, key, shardId);
  }

  public long freezeKey(Connection c, String keySpace, String key, int from) throws SQLException {
    return keyMap.freezeKey(c, keySpace, key, from);
  }

  public long flipKey(Connection c, String keySpace, String key, int from, int to) throws SQLException {
    return keyMap.flipKey(c, keySpace, key, from, to);
  }

  public long unfreezeKey(Connection c, String keySpace, String key, int from) throws SQLException {
    return keyMap.unfreezeKey(c, keySpace, key, from);
  }

  public long announceMove(Connection c, String keySpace, String key, int from, int to, String phase) throws SQLException {
    return keyMap.announceMove(c, keySpace, key, from, to, phase);
  }

  public Placement lockKey(Connection c, String keySpace, String key) throws SQLException {
    return keyMap.lockKey(c, keySpace, key);
  }

  public List<String> activeKeysOn(String keySpace, int shardId, int limit) throws SQLException {
    return keyMap.activeKeysOn(keySpace, shardId, limit);
  }

  public void forEachKey(String keySpace, java.util.function.Consumer<KeyEntry> sink) throws SQLException {
    keyMap.forEachKey(keySpace, sink);
  }

  // the change log (ChangeLog)
  public long lastChange() throws SQLException {
    return changes.lastChange();
  }

  public List<Change> changesSince(long after, int limit) throws SQLException {
    return changes.changesSince(after, limit);
  }

  // the clients (ClientStore)
  public void registerClient(String clientId, String info, long appliedChange) throws SQLException {
    clients.registerClient(clientId, info, appliedChange);
  }

  public void heartbeat(Connection c, String clientId, long appliedChange) throws SQLException {
    clients.heartbeat(c, clientId, appliedChange);
  }

  public void removeClient(String clientId) throws SQLException {
    clients.removeClient(clientId);
  }

  public List<ClientState> clientsBehind(long change, long staleAfterMs) throws SQLException {
    return clients.clientsBehind(change, staleAfterMs);
  }

  public List<ClientState> clients() throws SQLException {
    return clients.clients();
  }

  // ---- plumbing ----------------------------------------------------------------------------------

  /** A unit of directory work inside one transaction. */
  public interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  public interface Binder {
    void bind(PreparedStatement ps) throws SQLException;
  }

  public interface RowMapper<T> {
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
  public <T> T autocommit(Work<T> work) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      return work.run(c);
    } catch (SQLException e) {
      throw named(e);
    }
  }

  public <T> List<T> query(String sql, Binder binder, RowMapper<T> mapper) throws SQLException {
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
