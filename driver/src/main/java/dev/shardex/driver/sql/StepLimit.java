package dev.shardex.driver.sql;

import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.Select;

/**
 * The one bound of every buffered step (issue 20: "every buffered step is fetched with LIMIT
 * cap+1"): a step that holds its rows in the client asks for one row past the cap, so a step with
 * exactly cap rows is answered and one with more is seen to have more (its cap+1-th row), and
 * refused by name there, before any later step runs. The reader's half is {@code plan.Rows.read}
 * (it holds cap rows and refuses the cap+1-th); the merge stage allows a step's LIMIT of cap+1
 * ({@code MergeSource.step}).
 */
public final class StepLimit {
  private StepLimit() {}

  /** The rows a buffered step fetches: one past the cap. */
  public static long fetched(long cap) {
    return cap + 1;
  }

  /** A step's text, which has no LIMIT of its own, fetching one row past the cap. */
  public static String text(String sql, long cap) {
    return sql + " LIMIT " + fetched(cap);
  }

  /**
   * The same for a parsed step: no LIMIT of its own gets one; a LIMIT of its own above cap+1 is
   * lowered to it (its cap+1-th row refuses the statement anyway).
   */
  public static void capped(Select select, long cap) {
    Select s = select instanceof ParenthesedSelect p ? p.getSelect() : select;
    Limit limit = s.getLimit();
    if (limit == null && s.getOffset() == null && s.getFetch() == null) {
      s.setLimit(new Limit().withRowCount(new LongValue(fetched(cap))));
    } else if (limit != null && limit.getRowCount() instanceof LongValue n && n.getValue() > fetched(cap)) {
      limit.setRowCount(new LongValue(fetched(cap)));
    }
  }
}
