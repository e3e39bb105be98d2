package dev.shardex.driver.plan;

import dev.shardex.directory.ShardexError;
import dev.shardex.driver.merge.Cell;
import dev.shardex.driver.sql.JoinAggregates;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Aggregates, groups, DISTINCT and HAVING over a cross-shard join, done by one server: the joined
 * rows (only the columns the statement reads) go back to one shard as a typed JSON_TABLE, and the
 * statement's own select list, GROUP BY, HAVING, ORDER BY and LIMIT run over them there
 * ({@link JoinAggregates}). The server's own grouping, collations, folding and result types apply;
 * a column shown as is keeps its table column's metadata. Bounded by the join's cap, one round trip more.
 */
public final class PushBack implements Operator {
  private final Operator join;
  private final JoinAggregates.Plan plan;
  private final long maxBytes;
  private final Step outer;
  private final String describe;

  public PushBack(Operator join, JoinAggregates.Plan plan, long maxBytes) {
    this(join, plan, maxBytes, "PushBack: the joined rows to one shard as a typed JSON_TABLE; the statement's aggregates, GROUP BY,"
        + " DISTINCT, HAVING, ORDER BY and LIMIT run there");
  }

  /** {@code describe}: what it does, for EXPLAIN ROUTE (a GLOBAL table's outer join gives back one table's rows). */
  public PushBack(Operator join, JoinAggregates.Plan plan, long maxBytes, String describe) {
    this.join = join;
    this.plan = plan;
    this.maxBytes = maxBytes;
    this.describe = describe;
    this.outer = new Step(plan.outer(), "the statement over the joined rows, given back to one shard as a typed JSON_TABLE", true);
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    Rows joined = Rows.read(run.open(join), run.cap(), "");
    String json = json(joined.cells());
    if (json.length() > maxBytes) {
      throw ShardexError.JOIN_TOO_LARGE.exception(plan.outer(), "joined (as " + json.length() + " bytes of JSON)", maxBytes);
    }
    Object[] bound = new Object[plan.outerParams().length];
    for (int i = 0; i < bound.length; i++) {
      int p = plan.outerParams()[i];
      bound[i] = p == plan.json() ? json : run.values()[p]; // the statement's values array may be longer than its markers
    }
    Rows out = Rows.read(run.open(outer.bind(plan.outer(), bound)), run.cap(), "");
    return new Rows(out.cells(), new PushedMetaData(out.meta(), joined.meta(), plan.plain(), run.values())).result(run);
  }

  /** The rows as a JSON array of arrays: each value as the text the shard gave (NULL as null), so the typed column reads it back exactly. */
  private String json(List<Cell[]> rows) {
    StringBuilder s = new StringBuilder(64 + rows.size() * 16 * plan.columns());
    s.append('[');
    for (int r = 0; r < rows.size(); r++) {
      s.append(r == 0 ? "[" : ",[");
      Cell[] row = rows.get(r);
      for (int i = 0; i < plan.columns(); i++) {
        if (i > 0) {
          s.append(',');
        }
        String text = row[i].value() == null ? null : row[i].text();
        if (text == null) {
          s.append("null");
        } else {
          quote(s, text);
        }
      }
      s.append(']');
    }
    return s.append(']').toString();
  }

  /** Appends {@code text} as a JSON string. */
  static void quote(StringBuilder s, String text) {
    s.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> s.append("\\\"");
        case '\\' -> s.append("\\\\");
        case '\n' -> s.append("\\n");
        case '\r' -> s.append("\\r");
        case '\t' -> s.append("\\t");
        default -> {
          if (c < 0x20) {
            s.append(String.format("\\u%04x", (int) c));
          } else {
            s.append(c);
          }
        }
      }
    }
    s.append('"');
  }

  @Override
  public String describe() {
    return describe;
  }

  @Override
  public String roundTrips() {
    return "1";
  }

  @Override
  public List<Operator> inputs() {
    return List.of(join, outer);
  }
}
