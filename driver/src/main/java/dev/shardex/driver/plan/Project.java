package dev.shardex.driver.plan;

import dev.shardex.driver.merge.Cell;
import dev.shardex.driver.merge.MergedMetaData;
import dev.shardex.driver.sql.MergeSpec;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The caller's columns: the hidden trailing ones cut off, and the metadata one server would report
 * for the merged values (COUNT(DISTINCT) as BIGINT, AVG with its scale, labels with their values).
 */
final class Project implements Operator {
  private final Operator input;
  private final int hidden;
  private final MergeSpec spec;

  Project(Operator input, int hidden, MergeSpec spec) {
    this.input = input;
    this.hidden = hidden;
    this.spec = spec;
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    Rows rows = Rows.read(run.open(input), run.cap(), "");
    int visible = rows.meta().getColumnCount() - hidden;
    List<Cell[]> out = new ArrayList<>(rows.cells().size());
    for (Cell[] row : rows.cells()) {
      out.add(hidden == 0 ? row : Arrays.copyOf(row, visible));
    }
    return new Rows(out, new MergedMetaData(rows.meta(), visible, spec, run.values())).result(run);
  }

  @Override
  public String describe() {
    return "Project: the caller's columns" + (hidden > 0 ? ", " + hidden + " hidden column" + (hidden == 1 ? "" : "s") + " cut" : "");
  }

  @Override
  public List<Operator> inputs() {
    return List.of(input);
  }
}
