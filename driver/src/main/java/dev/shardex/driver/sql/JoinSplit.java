package dev.shardex.driver.sql;

import java.util.List;

/**
 * A SELECT that joins two groups of tables living on different shards, cut into the two statements
 * a lookup join runs: the <b>driving</b> statement (every table but one, with their predicates,
 * ordering and the driving join column as a hidden last column) and the <b>dependent</b> statement
 * (the one remaining SHARDED table, its own predicates, its join column as a hidden last column and
 * {@code IN (...)} of the driving side's join values). Both are ordinary statements that Shardex
 * routes and merges as it does any other.
 *
 * @param left whether the dependent table is the inner side of a LEFT JOIN (unmatched driving rows padded with NULL)
 * @param driving the driving statement's text (no LIMIT: the operator bounds it)
 * @param drivingParams which of the statement's parameters the driving text binds, in order
 * @param dependent the dependent statement's text up to its key list: the operator appends {@code ?, ?, ...)}
 * @param dependentParams which of the statement's parameters the dependent text binds before the keys
 * @param output the result's columns, in the statement's order, then {@code hidden} sort columns
 * @param hidden how many trailing output items only the client's sort reads
 * @param limit the statement's LIMIT row count, or null
 * @param offset the statement's OFFSET, or null
 * @param table the dependent table, named in errors and EXPLAIN
 * @param joinColumn the dependent table's join column
 * @param sort the ORDER BY the client applies to the joined rows, or null when the driving order is the answer's
 * @param counts for a statement that only counts the joined rows, its counts (the output items are their columns); else null
 */
public record JoinSplit(boolean left, String driving, int[] drivingParams, String dependent, int[] dependentParams,
    List<Item> output, int hidden, ValueSource limit, ValueSource offset, String table, String joinColumn, List<SortTerm> sort,
    List<Count> counts) {

  /**
   * One {@code COUNT(*)} (item -1) or {@code COUNT(col)} (the output item holding col) of a
   * statement that only counts the join's rows; {@code label} is its column label.
   */
  public record Count(String label, int item) {}

  /**
   * One ORDER BY term sorted by the client: a 1-based position in the result's columns, or the
   * 0-based output item whose first column it sorts by (position -1), or, within a {@code t.*}
   * item, the column named {@code column}.
   */
  public record SortTerm(int position, int item, String column, boolean descending) {}

  /** Where a result column comes from: one side's item; a star item spans every column that side's star gave. */
  public record Item(boolean dependentSide, int index, boolean star) {}

  /** The hidden join column's label on both sides. */
  public static final String JOIN_KEY = "__shx_jk";
}
