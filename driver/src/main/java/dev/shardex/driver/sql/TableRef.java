package dev.shardex.driver.sql;

/**
 * A table as a statement names it: logical name (lower-case, no schema, no quotes), alias, SELECT
 * scope, and the top-level UNION branch it belongs to (0 without UNION): branches route apart.
 */
public record TableRef(String name, String alias, int scope, int branch) {
  public boolean answersTo(String qualifier) {
    return qualifier.equals(alias) || (alias == null && qualifier.equals(name)) || qualifier.equals(name);
  }
}
