package dev.shardex.driver.plan;

import dev.shardex.driver.merge.Cell;
import dev.shardex.driver.merge.JoinedMetaData;
import dev.shardex.driver.merge.RowsResultSet;
import dev.shardex.driver.sql.JoinSplit;
import dev.shardex.driver.sql.ValueSource;
import dev.shardex.vocabulary.ShardexError;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The batched lookup join: runs the driving statement (bounded by {@code cap} rows), then the
 * dependent statement once per batch of at most {@code batch} distinct join values, as
 * {@code col IN (...)}, which the router sends only to the shards owning those values when the
 * column is the dependent table's key or has a lookup. Rows pair by integer value (the join values
 * are read back from MySQL, which applied its own comparison in the IN list); other join types are
 * refused before anything is returned. Output keeps the driving order; a LEFT JOIN pads unmatched
 * driving rows with NULL; LIMIT and OFFSET apply to the joined rows.
 */
public final class LookupJoin implements Operator {
  private final JoinSplit split;
  private final int batch;
  private final int cap;
  private final int[] params;
  private final StepTexts texts;
  private final Step driving;
  private final Step dependent;

  public LookupJoin(JoinSplit split, int batch, int cap) {
    this(split, batch, cap, null);
  }

  /** {@code params}: which of the statement's values the split's text binds (null: all, in order). */
  public LookupJoin(JoinSplit split, int batch, int cap, int[] params) {
    this(StepTexts.of(split, batch, cap), batch, cap, params);
  }

  /** A plain lookup join whose split and texts are cached ({@code texts} written for this batch and cap). */
  public LookupJoin(StepTexts texts, int batch, int cap) {
    this(texts, batch, cap, null);
  }

  private LookupJoin(StepTexts texts, int batch, int cap, int[] params) {
    this.split = texts.split();
    this.batch = batch;
    this.cap = cap;
    this.params = params;
    this.texts = texts;
    this.driving = new Step(texts::driving,
        () -> "lookup join (" + kind() + "), step 1: the driving rows, routed as a statement of their own", false);
    this.dependent = new Step(() -> split.dependent() + "?, ...)", () -> "lookup join (" + kind() + "), step 2: " + split.table()
        + " rows by " + split.joinColumn() + " IN (at most " + batch + " distinct join values per statement), routed by those values",
        false);
  }

  private String kind() {
    return split.left() ? "LEFT" : "inner";
  }

  /** The statement's plan: the join, under a count of its rows when that is all the statement asks. */
  public Operator root() {
    return split.counts() == null ? this : new JoinCount(this, split.counts(), split.offset(), split.limit());
  }

  @Override
  public String describe() {
    return "LookupJoin (" + kind() + ") on " + split.table() + "." + split.joinColumn()
        + ": driving rows first, then at most " + batch + " distinct join values per statement";
  }

  @Override
  public String roundTrips() {
    return "1 + (shards owning the values) per batch";
  }

  @Override
  public List<Operator> inputs() {
    return List.of(driving, dependent);
  }

  private record Side(List<Cell[]> rows, ResultSetMetaData meta) {
    int width() throws SQLException {
      return meta.getColumnCount() - 1; // the hidden join column is last
    }
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    Object[] values = params == null ? run.values() : Values.pick(run.values(), params);
    // LIMIT cap+1: its cap+1-th row refuses the join (read() holds at most cap rows)
    Side driving = read(run.open(this.driving.bind(texts.driving(), Values.pick(values, split.drivingParams()))),
        "driving");
    List<Object> keys = joinValues(driving);
    Map<Object, List<Cell[]>> matches = new HashMap<>(keys.size() * 2);
    Side dependent = null;
    int read = 0;
    for (int from = 0; from < keys.size() || dependent == null; from += batch) {
      List<Object> chunk = keys.isEmpty() ? Collections.singletonList(null) : keys.subList(from, Math.min(keys.size(), from + batch));
      Side part = read(run.open(this.dependent.bind(texts.dependent(chunk.size()),
          Values.concat(Values.pick(values, split.dependentParams()), chunk))), "dependent");
      dependent = dependent == null ? part : dependent;
      read += part.rows().size();
      if (read > cap) {
        throw ShardexError.JOIN_TOO_LARGE.exception(split.table(), "dependent", cap);
      }
      for (Cell[] row : part.rows()) {
        matches.computeIfAbsent(joinValue(row), k -> new ArrayList<>()).add(row);
      }
    }
    return joined(driving, dependent, matches, values);
  }

  private ResultSet joined(Side driving, Side dependent, Map<Object, List<Cell[]>> matches, Object[] values)
      throws SQLException {
    int[][] columns = columns(driving, dependent);
    boolean counting = split.counts() != null; // every joined row is counted: LIMIT applies to the count's row
    long offset = counting ? 0 : bound(split.offset(), values, 0);
    long limit = counting ? Long.MAX_VALUE : bound(split.limit(), values, Long.MAX_VALUE);
    boolean sorted = split.sort() != null;
    List<Cell[]> out = new ArrayList<>();
    for (Cell[] d : driving.rows()) {
      Object key = joinValue(d);
      List<Cell[]> found = key == null ? null : matches.get(key);
      if (found == null && split.left()) {
        found = Collections.singletonList(null);
      }
      for (Cell[] m : found == null ? List.<Cell[]>of() : found) {
        if (!sorted && out.size() >= offset + limit && offset + limit >= 0) {
          return result(slice(out, offset, limit), driving, dependent, columns); // the driving order: stop early
        }
        out.add(row(d, m, columns));
        if (out.size() > cap) {
          throw ShardexError.JOIN_TOO_LARGE.exception(split.table(), "joined", cap);
        }
      }
    }
    if (sorted) {
      JoinedMetaData meta = meta(driving, dependent, columns);
      out.sort(JoinOrder.of(split.sort(), split.output(), columns[0].length - split.hidden(), meta, stars(driving, dependent)));
    }
    return result(slice(out, offset, limit), driving, dependent, columns);
  }

  private static List<Cell[]> slice(List<Cell[]> rows, long offset, long limit) {
    int from = (int) Math.min(rows.size(), offset);
    int to = (int) Math.min(rows.size(), from + Math.min(limit, Integer.MAX_VALUE));
    return rows.subList(from, to);
  }

  private JoinedMetaData meta(Side driving, Side dependent, int[][] columns) {
    return new JoinedMetaData(driving.meta(), dependent.meta(), columns[0], columns[1], split.left());
  }

  /** The rows and their metadata, without the hidden sort columns. */
  private ResultSet result(List<Cell[]> rows, Side driving, Side dependent, int[][] columns) {
    int visible = columns[0].length - split.hidden();
    List<Cell[]> out = new ArrayList<>(rows.size());
    for (Cell[] row : rows) {
      out.add(split.hidden() == 0 ? row : java.util.Arrays.copyOf(row, visible));
    }
    int[][] shown = {java.util.Arrays.copyOf(columns[0], visible), java.util.Arrays.copyOf(columns[1], visible)};
    return RowsResultSet.of(out, meta(driving, dependent, shown));
  }

  private static Cell[] row(Cell[] d, Cell[] m, int[][] columns) {
    Cell[] row = new Cell[columns[0].length];
    for (int i = 0; i < row.length; i++) {
      row[i] = columns[0][i] == 0 ? d[columns[1][i] - 1] : m == null ? Cell.NULL : m[columns[1][i] - 1];
    }
    return row;
  }

  /** How many columns a star item of each side spans (driving, dependent). */
  private int[] stars(Side driving, Side dependent) throws SQLException {
    int[] stars = {driving.width(), dependent.width()};
    for (JoinSplit.Item item : split.output()) {
      if (!item.star()) {
        stars[item.dependentSide() ? 1 : 0]--;
      }
    }
    return stars;
  }

  /** For each output column: [0] its side (0 driving, 1 dependent), [1] its 1-based column in that side's rows. */
  private int[][] columns(Side driving, Side dependent) throws SQLException {
    int[] stars = stars(driving, dependent);
    List<int[]> cols = new ArrayList<>();
    int[] next = {1, 1};
    for (JoinSplit.Item item : split.output()) {
      int s = item.dependentSide() ? 1 : 0;
      for (int k = 0; k < (item.star() ? stars[s] : 1); k++) {
        cols.add(new int[] {s, next[s]++});
      }
    }
    int[][] out = new int[2][cols.size()];
    for (int i = 0; i < cols.size(); i++) {
      out[0][i] = cols.get(i)[0];
      out[1][i] = cols.get(i)[1];
    }
    return out;
  }

  private Side read(ResultSet rs, String side) throws SQLException {
    try (rs) {
      ResultSetMetaData meta = rs.getMetaData();
      int n = meta.getColumnCount();
      boolean[] whole = Cell.signedWholeNumbers(meta);
      List<Cell[]> rows = new ArrayList<>();
      while (rs.next()) {
        if (rows.size() >= cap) {
          throw ShardexError.JOIN_TOO_LARGE.exception(split.table(), side, cap);
        }
        Cell[] row = new Cell[n];
        for (int i = 1; i <= n; i++) {
          row[i - 1] = Cell.read(rs, i, whole[i]);
        }
        rows.add(row);
      }
      return new Side(rows, meta);
    }
  }

  /** The driving rows' distinct join values, NULL left out, in their first row's order. */
  private List<Object> joinValues(Side driving) throws SQLException {
    LinkedHashSet<Object> distinct = new LinkedHashSet<>(driving.rows().size() * 2);
    for (Cell[] row : driving.rows()) {
      Object key = joinValue(row);
      if (key != null) {
        distinct.add(key);
      }
    }
    return new ArrayList<>(distinct);
  }

  /** A join value as a whole number; a value of another type is refused (its equality is the server's to decide). */
  private Object joinValue(Cell[] row) throws SQLException {
    Object v = row[row.length - 1].value();
    if (v == null) {
      return null;
    }
    if (v instanceof Long) {
      return v;
    }
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigInteger b) {
      return b.bitLength() < 64 ? (Object) b.longValue() : b;
    }
    if (v instanceof BigDecimal d && d.stripTrailingZeros().scale() <= 0) {
      return joinValue(new Cell[] {new Cell(d.toBigIntegerExact(), null)});
    }
    throw ShardexError.JOIN_NOT_ON_KEY.exception(split.table(), split.joinColumn(),
        "its join column holds " + v.getClass().getSimpleName() + " values, and a cross-shard join pairs whole numbers only");
  }

  static long bound(ValueSource v, Object[] values, long none) throws SQLException {
    if (v == null) {
      return none;
    }
    Object o = v instanceof ValueSource.Param p ? values[p.index()] : v instanceof ValueSource.Literal l ? l.value() : null;
    if (!(o instanceof Number n)) {
      throw ShardexError.UNSUPPORTED.exception("LIMIT " + o + " in a cross-shard join", "give LIMIT a whole number");
    }
    return n instanceof BigInteger b && b.bitLength() >= 64 ? Long.MAX_VALUE : Math.max(0, n.longValue());
  }
}
