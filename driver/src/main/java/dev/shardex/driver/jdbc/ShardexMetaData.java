package dev.shardex.driver.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;

/**
 * A shard's DatabaseMetaData that answers for Shardex where it speaks of the connection itself:
 * {@code getURL()} is the Shardex URL (password-free) and {@code getConnection()} the logical
 * connection. Everything else (schema, types, capabilities) is the shard's: every shard has the same.
 */
final class ShardexMetaData {
  private ShardexMetaData() {}

  static DatabaseMetaData of(DatabaseMetaData shard, Connection logical, String url) {
    String shown = dev.shardex.directory.Redact.url(url);
    return (DatabaseMetaData) Proxy.newProxyInstance(ShardexMetaData.class.getClassLoader(),
        new Class<?>[] {DatabaseMetaData.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "getURL":
              return shown;
            case "getConnection":
              return logical;
            case "toString":
              return "ShardexMetaData[" + shown + "]";
            default:
              try {
                return method.invoke(shard, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
          }
        });
  }
}
