package dev.shardex.driver.plan;

import dev.shardex.driver.merge.Cell;
import dev.shardex.driver.merge.Fold;
import dev.shardex.driver.merge.ValueOrder;
import dev.shardex.driver.sql.MergeSpec;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Folds the shards' partial groups into the groups one server would give: rows with equal group
 * keys (by the column's case rules) become one, each column folded as its slot says (counts and
 * sums added, MIN/MAX kept, distinct values collected, AVG as SUM over COUNT with MySQL's scale).
 * An aggregate with no GROUP BY over no rows is still one row, as on one server.
 */
final class Aggregate implements Operator {
  private final Operator input;
  private final MergeSpec spec;
  private final String shards;

  Aggregate(Operator input, MergeSpec spec, String shards) {
    this.input = input;
    this.spec = spec;
    this.shards = shards;
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    Rows rows = Rows.read(run.open(input), run.cap(), shards);
    boolean[] ci = rows.caseInsensitive();
    Map<List<Object>, Fold[]> groups = new LinkedHashMap<>();
    for (Cell[] row : rows.cells()) {
      List<Object> key = new ArrayList<>(spec.groupKeys().size());
      for (int k : spec.groupKeys()) {
        key.add(ValueOrder.groupingKey(row[k - 1].value(), ci[k - 1]));
      }
      Fold[] folds = groups.computeIfAbsent(key, x -> folds(ci));
      for (int i = 0; i < folds.length; i++) {
        folds[i].add(row[i]);
      }
    }
    if (groups.isEmpty() && spec.groupKeys().isEmpty()) {
      groups.put(List.of(), folds(ci)); // the shards grouped by a DISTINCT argument and found nothing
    }
    List<Cell[]> out = new ArrayList<>(groups.size());
    for (Fold[] folds : groups.values()) {
      Cell[] row = new Cell[folds.length];
      for (int i = 0; i < folds.length; i++) {
        int avgCount = spec.slots().get(i).avgCount();
        row[i] = folds[i].result(avgCount > 0 ? folds[avgCount - 1] : null);
      }
      out.add(row);
    }
    return new Rows(out, rows.meta()).result(run);
  }

  private Fold[] folds(boolean[] ci) {
    Fold[] f = new Fold[spec.slots().size()];
    for (int i = 0; i < f.length; i++) {
      f[i] = new Fold(spec.slots().get(i), ci[i]);
    }
    return f;
  }

  @Override
  public String describe() {
    List<String> folds = new ArrayList<>();
    for (int i = 0; i < spec.slots().size(); i++) {
      MergeSpec.Slot s = spec.slots().get(i);
      if (s.fold() != MergeSpec.Fold.FIRST) {
        folds.add("col " + (i + 1) + " " + s.fold() + (s.avgCount() > 0 ? " / col " + s.avgCount() + " (AVG)" : ""));
      }
    }
    return "Aggregate: " + (spec.groupKeys().isEmpty() ? "every shard's row into one group"
        : "rows with equal col " + spec.groupKeys() + " into one group each")
        + (folds.isEmpty() ? "" : "; " + String.join(", ", folds));
  }

  @Override
  public List<Operator> inputs() {
    return List.of(input);
  }
}
