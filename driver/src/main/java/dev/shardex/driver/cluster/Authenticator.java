package dev.shardex.driver.cluster;

import dev.shardex.directory.Redact;
import dev.shardex.vocabulary.ShardexError;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Base64;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Every logical connection proves its credentials. Connections share a {@link Cluster} only when
 * they present the same user and the same passwords: the cluster key carries a salted SHA-256 of
 * every password given (the directory's and any {@code shard.N.password}), never the passwords.
 * A key no cluster has yet opens a new one, and opening starts with a plain Connector/J login to
 * the directory, so a wrong password is refused at once with SQLState 28000 and nothing is cached.
 *
 * <p>The salt is random per JVM, so the digests in memory cannot be compared with a precomputed
 * table, and they are never logged or printed.
 */
final class Authenticator {
  private static final byte[] SALT = salt();

  /** MySQL's "access denied" codes: bad password, no rights on the database, auth plugin refusal. */
  private static final java.util.Set<Integer> DENIED = java.util.Set.of(1044, 1045, 1698, 1251);

  private Authenticator() {}

  /** 16 bytes from the platform's non-blocking SecureRandom (generateSeed may wait for /dev/random). */
  private static byte[] salt() {
    byte[] salt = new byte[16];
    new SecureRandom().nextBytes(salt);
    return salt;
  }

  /** A salted digest of every password option in {@code props}, for the cluster key. */
  static String passwordDigest(Properties props) {
    Map<String, String> secrets = new TreeMap<>();
    for (String name : props.stringPropertyNames()) {
      if (isSecret(name)) {
        secrets.put(name, props.getProperty(name));
      }
    }
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(SALT);
      for (Map.Entry<String, String> e : secrets.entrySet()) {
        sha.update(e.getKey().getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(e.getValue().getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
      }
      return Base64.getEncoder().encodeToString(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }

  static boolean isSecret(String option) {
    return option.toLowerCase(java.util.Locale.ROOT).contains("password");
  }

  /**
   * Logs in to the directory once with these credentials, straight through Connector/J (no pool,
   * no retry), and refuses with SQLState 28000 when the server denies access. Returns the open
   * connection, which the directory pool then adopts instead of opening its first one.
   */
  static Connection login(String directoryUrl, String user, String password, long timeoutMs) throws SQLException {
    Properties p = new Properties();
    if (user != null) {
      p.setProperty("user", user);
    }
    p.setProperty("password", password == null ? "" : password);
    p.setProperty("connectTimeout", Long.toString(timeoutMs));
    p.setProperty("socketTimeout", Long.toString(Math.max(timeoutMs, 1000)));
    // the directory pool adopts this connection: answer HikariCP's autocommit and isolation checks
    // from the session state Connector/J tracks, not with two more round trips
    p.setProperty("useLocalSessionState", "true");
    try {
      Connection c = new com.mysql.cj.jdbc.Driver().connect(directoryUrl, p);
      if (c == null) {
        throw ShardexError.BAD_OPTION.exception("directory URL", Redact.url(directoryUrl), "expected a jdbc:mysql: URL after jdbc:shardex:");
      }
      return c; // the directory pool adopts it as its first connection
    } catch (SQLException e) {
      String why = Redact.text(e.getMessage(), password);
      if ("28000".equals(e.getSQLState()) || DENIED.contains(e.getErrorCode())) {
        throw ShardexError.ACCESS_DENIED.exception(user, Redact.url(directoryUrl), why);
      }
      if (ShardexError.BAD_OPTION.is(e)) {
        throw e;
      }
      throw ShardexError.DIRECTORY_UNREACHABLE.exception(Redact.url(directoryUrl), why);
    }
  }
}
