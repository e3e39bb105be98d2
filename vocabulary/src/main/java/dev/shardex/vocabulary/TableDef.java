package dev.shardex.vocabulary;

/**
 * A logical table as the catalog declares it. {@code keySpace} and {@code keyColumn} are set for
 * SHARDED tables; {@code homeShard} for SINGLE tables.
 */
public record TableDef(String name, TableKind kind, String keySpace, String keyColumn, Integer homeShard) {

  public static TableDef sharded(String name, String keySpace, String keyColumn) {
    return new TableDef(normalise(name), TableKind.SHARDED, keySpace, normalise(keyColumn), null);
  }

  public static TableDef global(String name) {
    return new TableDef(normalise(name), TableKind.GLOBAL, null, null, null);
  }

  public static TableDef single(String name, int homeShard) {
    return new TableDef(normalise(name), TableKind.SINGLE, null, null, homeShard);
  }

  /** Identifiers are compared case-insensitively and without back-quotes, as MySQL does on Linux for columns. */
  public static String normalise(String identifier) {
    String s = identifier.trim();
    if (s.length() > 1 && (s.charAt(0) == '`' || s.charAt(0) == '"') && s.charAt(s.length() - 1) == s.charAt(0)) {
      s = s.substring(1, s.length() - 1);
    }
    return s.toLowerCase(java.util.Locale.ROOT);
  }
}
