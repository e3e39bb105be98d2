/**
 * The values and result sets the operators pass and the application reads.
 *
 * <h2>What it is for</h2>
 * {@code ShardResultSet} (one shard's rows, as is), {@code SortedMergeResultSet} (a streamed k-way
 * merge or a concatenation), {@code RowsResultSet} (rows held in memory, read through the usual
 * getters), {@code Cell} (a value with the text the shard gave), {@code Fold} (one column's partial
 * values folded), {@code HavingEvaluator}, {@code ValueOrder} (the server's order and grouping keys),
 * and the metadata of merged and joined rows.
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>What the application reads is what one server would return: labels, types and class names
 *       are the shards' own, getString returns the shard's text.
 *   <li>Closing a result set releases the shard statements and connections beneath it, once.
 * </ul>
 *
 * <h2>What it may call</h2>
 * JDBC, the error vocabulary, {@code sql.MergeSpec} (how a column folds) and JSqlParser's
 * expressions (HAVING): it holds no plan and runs no statement.
 */
package dev.shardex.driver.merge;
