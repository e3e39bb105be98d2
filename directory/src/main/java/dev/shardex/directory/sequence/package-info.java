/**
 * Sequence-filled columns: which column a sequence fills and the sequences' next values in the
 * directory ({@code SequenceStore}), and one instance's reserved blocks of ids ({@code Sequences},
 * {@code SequenceBlocks}).
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>Like AUTO_INCREMENT, no id is handed out at or below a value already in the column: an
 *       explicit value moves the sequence past it, atomically, before the row is written.
 *   <li>A block goes to one instance; ids it does not spend (or drops on a TABLE change) are skipped,
 *       never handed out again.
 * </ul>
 *
 * <h2>What it may call</h2>
 * The vocabulary, the directory's store and the change log.
 */
package dev.shardex.directory.sequence;
