package dev.shardex.driver.sql;

/** A table as a statement names it: logical name (lower-case, no schema, no quotes), alias, scope. */
public record TableRef(String name, String alias, int scope) {
  public boolean answersTo(String qualifier) {
    return qualifier.equals(alias) || (alias == null && qualifier.equals(name)) || qualifier.equals(name);
  }
}
