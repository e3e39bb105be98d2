package dev.shardex.driver.merge;

import java.sql.SQLException;

/** The one JDBC unwrap/isWrapperFor rule for Shardex's own objects: they wrap nothing but themselves. */
public final class Wrappers {
  private Wrappers() {}

  public static <T> T unwrap(Object self, Class<T> iface) throws SQLException {
    if (iface.isInstance(self)) {
      return iface.cast(self);
    }
    throw dev.shardex.vocabulary.ShardexError.NOT_A_WRAPPER.exception(iface.getName());
  }

  public static boolean isWrapperFor(Object self, Class<?> iface) {
    return iface.isInstance(self);
  }
}
