package dev.shardex.driver.sql;

/**
 * A table as a statement names it: logical name (lower-case, no schema, no quotes), alias, SELECT
 * scope, the top-level UNION branch it belongs to (0 without UNION): branches route apart, and
 * whether it is on the NULL-supplying side of an outer join.
 */
public record TableRef(String name, String alias, int scope, int branch, boolean nullSupplying) {

  public TableRef(String name, String alias, int scope, int branch) {
    this(name, alias, scope, branch, false);
  }

  /** The same reference on the NULL-supplying side of an outer join. */
  TableRef outerInner() {
    return new TableRef(name, alias, scope, branch, true);
  }

  public boolean answersTo(String qualifier) {
    return qualifier.equals(alias) || (alias == null && qualifier.equals(name)) || qualifier.equals(name);
  }
}
