package dev.shardex.vocabulary;

import static dev.shardex.vocabulary.ShardexError.DIRECTORY_UNREACHABLE;
import static dev.shardex.vocabulary.ShardexError.LEASE_LAPSED;
import static dev.shardex.vocabulary.ShardexError.NO_SHARD;
import static dev.shardex.vocabulary.ShardexError.SHARD_OFFLINE;
import static dev.shardex.vocabulary.ShardexError.SHARD_UNREACHABLE;
import static dev.shardex.vocabulary.ShardexError.UNKNOWN_SHARD;

import dev.shardex.vocabulary.ShardexError.Raised;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;

/**
 * The exceptions {@link ShardexError} raises: one JDBC subclass per kind (so callers and frameworks can catch
 * by category: a shard that is down or OFFLINE is a connection-category exception even though its SQLState is
 * not class 08), each carrying its entry, which is how {@link ShardexError#of} knows it.
 */
final class RaisedExceptions {
  private RaisedExceptions() {}

  static SQLException create(ShardexError error, String message) {
    String state = error.sqlState();
    if (error == LEASE_LAPSED || error == SHARD_UNREACHABLE || error == DIRECTORY_UNREACHABLE) {
      return new TransientConnection(message, error);
    } else if (error == SHARD_OFFLINE || error == UNKNOWN_SHARD || error == NO_SHARD || error == ShardexError.SHARD_REFUSED
        || state.startsWith("08")) {
      return new NonTransientConnection(message, error);
    } else if (state.startsWith("28")) {
      return new InvalidAuthorization(message, error);
    } else if (state.startsWith("0A")) {
      return new FeatureNotSupported(message, error);
    } else if (state.startsWith("42")) {
      return new SyntaxError(message, error);
    } else if (state.startsWith("22")) {
      return new DataError(message, error);
    } else if (state.startsWith("40")) {
      return new TransactionRollback(message, error);
    } else if (state.startsWith("HYT")) {
      return new Transient(message, error);
    }
    return new Other(message, error);
  }

  private static final class TransientConnection extends SQLTransientConnectionException implements Raised {
    private final transient ShardexError error;

    TransientConnection(String message, ShardexError error) {
      super(message, error.sqlState());
      this.error = error;
    }

    @Override
    public ShardexError error() {
      return error;
    }
  }

  private static final class NonTransientConnection extends SQLNonTransientConnectionException implements Raised {
    private final transient ShardexError error;

    NonTransientConnection(String message, ShardexError error) {
      super(message, error.sqlState());
      this.error = error;
    }

    @Override
    public ShardexError error() {
      return error;
    }
  }

  private static final class InvalidAuthorization extends java.sql.SQLInvalidAuthorizationSpecException implements Raised {
    private final transient ShardexError error;

    InvalidAuthorization(String message, ShardexError error) {
      super(message, error.sqlState());
      this.error = error;
    }

    @Override
    public ShardexError error() {
      return error;
    }
  }

  private static final class FeatureNotSupported extends SQLFeatureNotSupportedException implements Raised {
    private final transient ShardexError error;

    FeatureNotSupported(String message, ShardexError error) {
      super(message, error.sqlState());
      this.error = error;
    }

    @Override
    public ShardexError error() {
      return error;
    }
  }

  private static final class SyntaxError extends SQLSyntaxErrorException implements Raised {
    private final transient ShardexError error;

    SyntaxError(String message, ShardexError error) {
      super(message, error.sqlState());
      this.error = error;
    }

    @Override
    public ShardexError error() {
      return error;
    }
  }

  private static final class DataError extends SQLDataException implements Raised {
    private final transient ShardexError error;

    DataError(String message, ShardexError error) {
      super(message, error.sqlState());
      this.error = error;
    }

    @Override
    public ShardexError error() {
      return error;
    }
  }

  private static final class TransactionRollback extends SQLTransactionRollbackException implements Raised {
    private final transient ShardexError error;

    TransactionRollback(String message, ShardexError error) {
      super(message, error.sqlState());
      this.error = error;
    }

    @Override
    public ShardexError error() {
      return error;
    }
  }

  private static final class Transient extends java.sql.SQLTimeoutException implements Raised {
    private final transient ShardexError error;

    Transient(String message, ShardexError error) {
      super(message, error.sqlState());
      this.error = error;
    }

    @Override
    public ShardexError error() {
      return error;
    }
  }

  private static final class Other extends SQLException implements Raised {
    private final transient ShardexError error;

    Other(String message, ShardexError error) {
      super(message, error.sqlState());
      this.error = error;
    }

    @Override
    public ShardexError error() {
      return error;
    }
  }
}
