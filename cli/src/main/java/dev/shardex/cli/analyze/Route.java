package dev.shardex.cli.analyze;

/**
 * Where a statement would go, in the words of EXPLAIN ROUTE and the metrics' route tag. Only the
 * first four are scored; IGNORED are statements routing does not judge (SET, USE, BEGIN/COMMIT,
 * SHOW, DDL, statements naming no table or only the server's own schemas).
 */
enum Route {
  /** Key equality, a GLOBAL read, a SINGLE table: one shard. */
  ONE("one shard"),
  /** Keys on several shards (an IN list, a multi-row INSERT split): only those shards. */
  SEVERAL("several shards"),
  /** No key: every shard, merged exactly; a GLOBAL write; a cross-shard join. */
  ALL("all shards"),
  /** The driver refuses it, with a named error (SHX id) and its fix. */
  REFUSED("refused"),
  IGNORED("not routed");

  static final Route[] SCORED = {ONE, SEVERAL, ALL, REFUSED};

  private final String label;

  Route(String label) {
    this.label = label;
  }

  String label() {
    return label;
  }

  String json() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
