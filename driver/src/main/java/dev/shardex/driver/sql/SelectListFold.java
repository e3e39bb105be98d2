package dev.shardex.driver.sql;

import dev.shardex.vocabulary.ShardexError;
import dev.shardex.driver.sql.MergeSpec.Fold;
import dev.shardex.driver.sql.MergeSpec.Slot;
import java.sql.SQLException;
import java.util.Locale;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * The select list of a grouped merged SELECT: each caller's column folds by its aggregate (a
 * plain column by its group's first value); AVG(x) becomes SUM(x) plus a hidden COUNT(x);
 * COUNT/SUM/AVG(DISTINCT x) become x added to the shards' GROUP BY. An aggregate that cannot be
 * folded from per-shard parts, or one inside an expression, is refused by name.
 */
final class SelectListFold {
  private SelectListFold() {}

  static void foldItems(MergeColumns m) throws SQLException {
    for (SelectItem<?> item : m.items) {
      Expression e = item.getExpression();
      if (e instanceof Function f && Aggregates.isAggregate(e) && !Aggregates.foldable(f)) {
        throw m.unsupported(f.getName().toUpperCase(Locale.ROOT) + "(...) across shards (it cannot be folded from per-shard parts)");
      }
      if (!(e instanceof Function f && Aggregates.foldable(f)) && Aggregates.isAggregate(e)) {
        throw m.unsupported("an aggregate inside an expression ('" + e + "') across shards");
      }
    }
    // COUNT(DISTINCT x) adds x to the shards' GROUP BY: the other aggregates then come back as
    // partials of finer groups, which fold into the caller's groups all the same.
    for (SelectItem<?> any : m.items) {
      @SuppressWarnings("unchecked")
      SelectItem<Expression> item = (SelectItem<Expression>) any;
      if (item.getExpression() instanceof Function f && Aggregates.foldable(f)) {
        m.columns.add(fold(m, item, f));
      } else {
        m.columns.add(new Slot(Fold.FIRST, 0, null));
      }
    }
  }

  private static Slot fold(MergeColumns m, SelectItem<Expression> item, Function f) throws SQLException {
    String name = f.getName().toUpperCase(Locale.ROOT);
    String label = item.getAlias() != null ? item.getAlias().getName() : f.toString();
    String text = f.toString();
    if (f.isDistinct()) {
      Fold distinctFold = m.distinctFold(name, f);
      Expression arg = f.getParameters().get(0);
      item.setExpression(arg);
      item.setAlias(new Alias(quote(label), true));
      m.addGroupBy(arg);
      return new Slot(distinctFold, 0, text, labelTemplate(label));
    } else if (name.equals("AVG")) {
      if (f.getParameters() == null || f.getParameters().size() != 1) {
        throw ShardexError.PARSE.exception("AVG takes exactly one argument: " + text);
      }
      Expression arg = f.getParameters().get(0);
      item.setExpression(Aggregates.call("SUM", arg));
      item.setAlias(new Alias(quote(label), true));
      int count = m.items.size() + m.hiddenItems.size() + 1;
      m.hiddenItems.add(m.hiddenItem(Aggregates.call("COUNT", arg)));
      m.hiddenSlots.add(new Slot(Fold.COUNT, 0, null));
      return new Slot(Fold.SUM, count, text, labelTemplate(label));
    }
    return new Slot(Fold.valueOf(name), 0, text);
  }

  /** A label that quotes parameters (?N) must be filled in per execution; others are final already. */
  private static String labelTemplate(String label) {
    return label.matches("(?s).*\\?\\d.*") ? label : null;
  }

  private static String quote(String label) {
    return "`" + label.replace("`", "``") + "`";
  }
}
