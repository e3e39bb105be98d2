package dev.shardex.driver.sql;

/**
 * Where a value in a statement comes from: a {@code ?} parameter (0-based), a literal written in
 * the text, or an expression Shardex does not evaluate. For plain statements, normalisation turns
 * every literal into a parameter, so the template is shared and the values come with each run.
 */
public sealed interface ValueSource {
  record Param(int index) implements ValueSource {}

  record Literal(Object value) implements ValueSource {}

  record Opaque(String text) implements ValueSource {}
}
