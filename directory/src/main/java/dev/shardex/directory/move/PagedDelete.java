package dev.shardex.directory.move;

import dev.shardex.vocabulary.KeyType;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The source delete of a move whose source records its changes ({@link ChangeCapture}): a page of
 * the key's rows per short transaction instead of one transaction holding every row's lock and
 * primary key. For a user of a million rows the one transaction held a million primary keys in
 * the mover's memory, a million row locks on the source, and one commit that flushed the whole
 * delete at once, stalling the writes of every other user of the shard's disk.
 *
 * <p>What vouches for it, in place of the one transaction's lock-then-compare: the source's own
 * digest equals the copy's before the first page (nothing the triggers could miss changed it up
 * to then), and every page commits only when the source holds no change record, so a write outside
 * Shardex to the key's rows since the frozen round (the triggers record it in its own transaction)
 * stops the delete before the page that would remove it. A write that arrives after a page is
 * safe: an UPDATE or DELETE of a row already deleted changes nothing, and any other write leaves a
 * record or a row that the next page's check or the final count finds. Then the move stops
 * ({@code STOPPED}) with the rows not yet deleted kept on the source, all of them copies or the
 * outside write itself.
 */
final class PagedDelete {
  /** Rows per page: each page is one source transaction. */
  static final int PAGE = 1_000;

  private final int batchSize;

  PagedDelete(int batchSize) {
    this.batchSize = batchSize;
  }

  /** What the delete did: rows deleted, pages committed, and why it stopped (null when every row of the key is gone). */
  record Result(long deleted, int pages, String stopped) {}

  /**
   * Deletes the key's rows page by page, each page checked against the record, {@code pace} after
   * each page; the connection is prepared ({@link KeyCopier#prepare}) and in autocommit on entry.
   */
  Result run(Connection src, long moveId, List<TableShape> shapes, KeyType type, String key, MovePace pace) throws SQLException {
    long deleted = 0;
    int pages = 0;
    src.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED); // no gap locks: only the page's rows
    for (TableShape shape : shapes) {
      Object after = null;
      while (true) {
        src.setAutoCommit(false);
        try {
          List<Object[]> page = page(src, shape, type, key, after);
          if (page.isEmpty()) {
            src.commit();
            break;
          }
          long removed = KeyCopier.deleteRows(src, shape, type, key, page, batchSize);
          long pending = ChangeCapture.pending(src, moveId);
          if (pending > 0 || removed != page.size()) {
            src.rollback();
            return new Result(deleted, pages, pending > 0 ? pending + " change record(s) arrived on the source after the frozen "
                + "round (a writer outside Shardex)" : "a page of " + page.size() + " row(s) of " + shape.table
                + " deleted " + removed + " (rows changed meanwhile)");
          }
          src.commit();
          deleted += removed;
          pages++;
          pace.afterBatch();
          after = shape.primaryKey.length == 1 ? page.get(page.size() - 1)[shape.primaryKey[0]] : null;
        } catch (SQLException | RuntimeException e) {
          KeyCopier.rollbackQuietly(src, e);
          throw e;
        } finally {
          src.setAutoCommit(true);
        }
      }
    }
    return new Result(deleted, pages, null);
  }

  /**
   * The next {@link #PAGE} of the key's rows by primary key (a plain read; the delete locks them):
   * after the last page's last primary key where it is one column, so that no page walks the index
   * entries of the pages before it (deleted, but kept until the server purges them); from the start
   * for a composite one.
   */
  private static List<Object[]> page(Connection src, TableShape shape, KeyType type, String key, Object after)
      throws SQLException {
    String next = after == null ? null : shape.selectPrimaryKeysAfter();
    return next == null ? KeyCopier.primaryKeys(src, shape, type, key, shape.selectPrimaryKeys() + " LIMIT " + PAGE)
        : KeyCopier.primaryKeys(src, shape, type, key, next + " LIMIT " + PAGE, after);
  }
}
