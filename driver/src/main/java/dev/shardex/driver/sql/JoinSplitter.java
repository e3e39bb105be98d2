package dev.shardex.driver.sql;

import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * Cuts a SELECT whose SHARDED tables live apart into a {@link JoinSplit}: one SHARDED table joined
 * by a single equality (INNER or LEFT JOIN) becomes the dependent side, everything else the driving
 * side. It only accepts what the two statements answer exactly: every select item, predicate and
 * ORDER BY term belongs to one side; the dependent side's predicates are its own (in ON, or in WHERE
 * for an inner join); no grouping, aggregate, DISTINCT, window, subquery or locking read. Anything
 * else is refused with the reason ({@link Refused}).
 */
public final class JoinSplitter {
  /** What the splitter needs to know about tables. */
  public interface Catalog {
    TableDef def(String table);

    /** The table's columns, lower case (to place unqualified columns); empty if unknown. */
    List<String> columns(String table) throws SQLException;

    /** Whether the column is the table's shard key or has a lookup index (so the dependent side is routed, not scattered). */
    boolean routable(String table, String column);

    /** The column's type as information_schema prints it, with its collation for text ("varchar(40) utf8mb4_general_ci"); null if unknown. */
    default String type(String table, String column) throws SQLException {
      return null;
    }
  }

  /** Why a statement cannot be split; the message completes "a cross-shard lookup join does not apply: ...". */
  public static final class Refused extends Exception {
    public Refused(String reason) {
      super(reason, null, false, false);
    }
  }

  private record Ref(String table, String name, Table node) {}

  private final Catalog catalog;
  private final PlainSelect select;
  private final Map<String, Ref> refs = new LinkedHashMap<>();
  private List<JoinSplit.Count> counts;

  private JoinSplitter(Catalog catalog, PlainSelect select) {
    this.catalog = catalog;
    this.select = select;
  }

  /** Splits {@code sql} (with {@code ?} markers), or says why not. */
  public static JoinSplit split(String sql, Catalog catalog) throws Refused, SQLException {
    Object parsed = Analyzer.parse(NumberedParameters.number(sql));
    if (!(parsed instanceof PlainSelect p) || p.getWithItemsList() != null) {
      throw new Refused("only a plain SELECT (no UNION or WITH) is split");
    }
    return new JoinSplitter(catalog, p).build();
  }

  private JoinSplit build() throws Refused, SQLException {
    if (select.getJoins() == null) {
      throw new Refused("a SHARDED table in a subquery is not joined across shards yet");
    }
    counts = JoinCounts.of(select); // COUNT(*) / COUNT(col) only: the join's rows, counted by the client
    boolean aggregates = select.getSelectItems().stream().anyMatch(i -> i.getExpression() != null
        && (Aggregates.isAggregate(i.getExpression()) || Aggregates.hasWindow(i.getExpression())));
    if (aggregates || select.getDistinct() != null || select.getGroupBy() != null || select.getHaving() != null
        || select.getForMode() != null || select.getIntoTables() != null) {
      throw new Refused("aggregates, window functions, DISTINCT, GROUP BY, HAVING, a locking read or INTO over a cross-shard join are not answered yet");
    }
    addRef(select.getFromItem());
    for (Join j : select.getJoins()) {
      addRef(j.getFromItem());
    }
    Ref dependent = null;
    for (int i = select.getJoins().size() - 1; i >= 0 && dependent == null; i--) {
      dependent = candidate(i, true);
    }
    for (int i = select.getJoins().size() - 1; i >= 0 && dependent == null; i--) {
      dependent = candidate(i, false);
    }
    if (dependent == null) {
      throw new Refused("it needs one SHARDED table joined to the rest by a single column equality (INNER or LEFT JOIN ... ON a.x = b.y),"
          + " with every select item, WHERE term and ORDER BY term reading one side only");
    }
    return cut(dependent);
  }

  private void addRef(Object item) throws Refused {
    if (!(item instanceof Table t)) {
      throw new Refused("a derived table or table function in FROM");
    }
    String name = (t.getAlias() != null ? t.getAlias().getName() : t.getName()).toLowerCase(Locale.ROOT);
    refs.put(unquote(name), new Ref(unquote(t.getName()), unquote(name), t));
  }

  static String unquote(String name) {
    return name.replace("`", "").toLowerCase(Locale.ROOT);
  }

  // ---- choosing the dependent table -----------------------------------------------------------

  private int chosen = -1;
  private Column[] joinColumns;

  /** The table of join {@code i} if it can be the dependent side; {@code routable} asks for a key or lookup join column. */
  private Ref candidate(int i, boolean routable) throws SQLException {
    Join j = select.getJoins().get(i);
    Ref r = refs.get(unquote(aliasOf((Table) j.getFromItem())));
    TableDef def = catalog.def(r.table());
    boolean inner = j.isInner() || (!j.isLeft() && !j.isRight() && !j.isFull() && !j.isCross() && !j.isNatural()
        && !j.isSimple() && !j.isStraight() && !j.isSemi() && !j.isApply());
    if (def == null || def.kind() != TableKind.SHARDED || !(inner || (j.isLeft() && !j.isSemi()))
        || j.getUsingColumns() != null && !j.getUsingColumns().isEmpty() || j.getOnExpressions() == null) {
      return null;
    }
    try {
      Column[] eq = null;
      for (Expression on : j.getOnExpressions()) {
        for (Expression c : ExpressionParts.conjuncts(on)) {
          Column[] pair = joinEquality(c, r);
          if (pair != null && eq == null) {
            eq = pair;
          } else if (!sides(c).equals(Set.of(true))) {
            return null; // a second equality, or a predicate on the other side
          }
        }
      }
      if (eq == null || (routable && !catalog.routable(r.table(), eq[0].getColumnName().replace("`", "")))) {
        return null;
      }
      dependentRef = r;
      for (int k = i + 1; k < select.getJoins().size(); k++) {
        for (Expression on : onOf(select.getJoins().get(k))) {
          if (sides(on).contains(true)) {
            return null; // a later join needs the dependent table's columns
          }
        }
      }
      Set<Boolean> whereSides = sides(select.getWhere());
      boolean whereMixed = ExpressionParts.conjuncts(select.getWhere()).stream().anyMatch(c -> sidesQuietly(c).size() > 1);
      if (whereMixed || (j.isLeft() && whereSides.contains(true) && !nullRejecting(select.getWhere()))) {
        return null;
      }
      if (select.getOrderByElements() != null && !order().drivingOrder()) {
        order().clientSort(null); // refuses a term it cannot sort by
      }
      for (SelectItem<?> item : select.getSelectItems()) {
        if (isStar(item) && i != select.getJoins().size() - 1) {
          return null; // SELECT * lists the dependent table's columns last only when it is the last table
        }
        if (sides(item.getExpression()).size() > 1) {
          return null;
        }
      }
      chosen = i;
      joinColumns = eq;
      return r;
    } catch (Refused e) {
      return null;
    } finally {
      if (chosen != i) {
        dependentRef = null;
      }
    }
  }


  /**
   * Whether WHERE drops every row whose dependent columns are all NULL: then a LEFT JOIN's padded
   * rows never pass it, and the join answers as an inner join (as MySQL's own optimizer turns it).
   * Only the plain forms count: a comparison, LIKE, BETWEEN, IN (list) or IS NOT NULL of a bare
   * dependent column; COALESCE, IS NULL, OR and the like keep the LEFT JOIN.
   */
  private boolean nullRejecting(Expression where) {
    for (Expression c : ExpressionParts.conjuncts(where)) {
      if (sidesQuietly(c).equals(Set.of(true)) && NullRejection.rejects(c)) {
        return true;
      }
    }
    return false;
  }

  private JoinSort order() {
    return new JoinSort(select, this::sides);
  }

  static boolean isStar(SelectItem<?> item) {
    return item.getExpression() instanceof AllColumns && !(item.getExpression() instanceof AllTableColumns);
  }

  private static List<Expression> onOf(Join j) {
    return j.getOnExpressions() == null ? List.of() : List.copyOf(j.getOnExpressions());
  }

  private static String aliasOf(Table t) {
    return t.getAlias() != null ? t.getAlias().getName() : t.getName();
  }

  /** {@code dep.col = other.col} (either order): [dependent column, driving column]; else null. */
  @SuppressWarnings("ReferenceEquality") // a Ref is the identity of one table reference of the statement
  private Column[] joinEquality(Expression e, Ref dep) throws Refused, SQLException {
    if (!(e instanceof EqualsTo eq) || !(eq.getLeftExpression() instanceof Column a)
        || !(eq.getRightExpression() instanceof Column b)) {
      return null;
    }
    Ref ra = resolve(a);
    Ref rb = resolve(b);
    if (ra == dep && rb != dep) {
      return new Column[] {a, b};
    }
    return rb == dep && ra != dep ? new Column[] {b, a} : null;
  }

  // ---- sides of expressions -------------------------------------------------------------------

  private Ref dependentRef;

  /** The sides an expression reads: true for the dependent table, false for the rest. */
  @SuppressWarnings("ReferenceEquality") // a Ref is the identity of one table reference of the statement
  private Set<Boolean> sides(Expression e) throws Refused, SQLException {
    Set<Boolean> out = new TreeSet<>();
    if (e == null) {
      return out;
    }
    List<Column> columns = ExpressionParts.columns(e);
    if (e instanceof AllTableColumns star) {
      out.add(refOf(star.getTable()) == dependentRef);
    }
    for (Column c : columns) {
      out.add(resolve(c) == dependentRef);
    }
    return out;
  }

  private Set<Boolean> sidesQuietly(Expression e) {
    try {
      return sides(e);
    } catch (Refused | SQLException x) {
      return Set.of(true, false);
    }
  }

  private Ref refOf(Table t) throws Refused {
    Ref r = refs.get(unquote(t.getName()));
    if (r == null) {
      throw new Refused("column qualifier " + t.getName() + " names no table of the statement");
    }
    return r;
  }

  /** The table a column belongs to: by its qualifier, or the one table that has it. */
  private Ref resolve(Column c) throws Refused, SQLException {
    if (c.getTable() != null && c.getTable().getName() != null) {
      return refOf(c.getTable());
    }
    String name = unquote(c.getColumnName());
    Ref found = null;
    for (Ref r : refs.values()) {
      if (catalog.columns(r.table()).contains(name)) {
        if (found != null) {
          throw new Refused("column " + name + " is in more than one table");
        }
        found = r;
      }
    }
    if (found == null) {
      throw new Refused("column " + name + " cannot be placed in one table (qualify it with its table)");
    }
    return found;
  }

  // ---- the two statements ---------------------------------------------------------------------

  private JoinSplit cut(Ref dep) throws Refused, SQLException {
    Join join = select.getJoins().get(chosen);
    boolean left = join.isLeft() && !nullRejecting(select.getWhere()); // before the WHERE is cut in two
    List<Expression> depWhere = new ArrayList<>();
    for (Expression on : join.getOnExpressions()) {
      for (Expression c : ExpressionParts.conjuncts(on)) {
        if (joinEquality(c, dep) == null) {
          depWhere.add(c);
        }
      }
    }
    List<Expression> drivingWhere = new ArrayList<>();
    for (Expression c : ExpressionParts.conjuncts(select.getWhere())) {
      (sides(c).contains(true) ? depWhere : drivingWhere).add(c);
    }
    List<JoinSplit.Item> output = new ArrayList<>();
    List<String> depItems = new ArrayList<>();
    List<SelectItem<?>> drivingItems = new ArrayList<>();
    for (SelectItem<?> item : select.getSelectItems()) {
      if (isStar(item)) { // every driving table's columns, then the dependent table's
        output.add(new JoinSplit.Item(false, drivingItems.size(), true));
        drivingItems.add(item);
        output.add(new JoinSplit.Item(true, depItems.size(), true));
        depItems.add(aliasOf(dep.node()) + ".*");
        continue;
      }
      boolean dependentSide = sides(item.getExpression()).contains(true);
      boolean star = item.getExpression() instanceof AllTableColumns;
      if (!star && !(item.getExpression() instanceof Column) && item.getAlias() == null) {
        // labelled as the merge stage labels it: the expression's text
        String label = item.getExpression().toString();
        if (label.matches("(?s).*\\?\\d.*")) {
          throw new Refused("select item " + label + " has a parameter and no alias (give it an alias)");
        }
        item.setAlias(new Alias("`" + label.replace("`", "``") + "`", true));
      }
      output.add(new JoinSplit.Item(dependentSide, dependentSide ? depItems.size() : drivingItems.size(), star));
      if (dependentSide) {
        depItems.add(item.toString());
      } else {
        drivingItems.add(item);
      }
    }
    if (output.stream().filter(i -> i.star() && i.dependentSide()).count() > 1
        || output.stream().filter(i -> i.star() && !i.dependentSide()).count() > 1) {
      throw new Refused("more than one t.* on one side");
    }
    int visible = output.size();
    List<JoinSplit.SortTerm> sort = select.getOrderByElements() == null || order().drivingOrder() ? null
        : order().clientSort(new JoinSort.Hidden(output, depItems, drivingItems));
    String depText = "SELECT " + String.join(", ", depItems) + (depItems.isEmpty() ? "" : ", ") + joinColumns[0]
        + " AS " + JoinSplit.JOIN_KEY + " FROM " + dep.node() + " WHERE "
        + (depWhere.isEmpty() ? "" : "(" + and(depWhere) + ") AND ") + joinColumns[0] + " IN (";
    NumberedParameters.Text dependent = NumberedParameters.print(depText);
    ValueSource limit = select.getLimit() == null ? null : MergeRewriter.value(select.getLimit().getRowCount());
    ValueSource offset = select.getLimit() == null || select.getLimit().getOffset() == null ? null
        : MergeRewriter.value(select.getLimit().getOffset());
    if (select.getOffset() != null) {
      offset = MergeRewriter.value(select.getOffset().getOffset());
    }
    if (sort != null) {
      select.setOrderByElements(null); // the client sorts the joined rows
    }
    select.getJoins().remove(chosen);
    select.setWhere(drivingWhere.isEmpty() ? null : and(drivingWhere));
    drivingItems.add(SelectItem.from(joinColumns[1], new Alias(JoinSplit.JOIN_KEY, true)));
    select.setSelectItems(drivingItems);
    select.setLimit(null);
    select.setOffset(null);
    if (select.getJoins().isEmpty()) {
      select.setJoins(null);
    }
    NumberedParameters.Text driving = NumberedParameters.print(select);
    return new JoinSplit(left, driving.sql(), driving.order(), dependent.sql(), dependent.order(),
        List.copyOf(output), output.size() - visible, limit, offset, dep.table(), joinColumns[0].getColumnName(), sort,
        counts);
  }

  private static Expression and(List<Expression> parts) {
    Expression e = parts.get(0);
    for (int i = 1; i < parts.size(); i++) {
      e = new AndExpression(e, parts.get(i));
    }
    return e;
  }
}
