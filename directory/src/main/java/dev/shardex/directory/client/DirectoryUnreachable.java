package dev.shardex.directory.client;

import dev.shardex.directory.Redact;
import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;

/** How a directory that cannot be reached is told to the caller: SHX1406, naming it and what still works. */
public final class DirectoryUnreachable {
  private DirectoryUnreachable() {}

  /**
   * A failed directory connection as SHX1406 naming the directory and what still works; a refused
   * login (SQLState 28000) keeps its own error; an error already Shardex's passes through.
   */
  public static SQLException named(SQLException e, String display, String password) {
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
}
