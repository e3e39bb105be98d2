package dev.shardex.driver.sql;

import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.statement.select.ExceptOp;
import net.sf.jsqlparser.statement.select.IntersectOp;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SetOperation;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.UnionOp;

/**
 * Cuts a top-level set operation (UNION, INTERSECT, EXCEPT, each ALL or DISTINCT) whose branches
 * need different shards into one statement per branch (each routed, merged and limited by itself:
 * its own ORDER BY and LIMIT apply after its own cross-shard merge) and the <b>outer</b> statement
 * that combines their rows on one shard: each branch becomes {@code SELECT ... FROM JSON_TABLE(?, ...)}
 * whose columns are declared with the branch column's table type and collation, joined by the
 * statement's own operators in their order and followed by its ORDER BY and LIMIT. So the server
 * applies its own precedence (INTERSECT before UNION and EXCEPT), derives the result types across
 * branches, pairs and de-duplicates rows under the columns' collations (NULLs equal, ALL keeping
 * multiplicities) and orders as one server holding all rows does.
 *
 * <p>What a branch's items become in the combining text is {@link UnionBranch}'s: values of a
 * known type carried as they are, literals as written, row-wise expressions computed again; the
 * rest (SUM, AVG or an expression in a branch that groups, {@code *}) is refused by name rather
 * than typed by a guess.
 */
public final class UnionSplit {
  /** One branch: its text (plain markers binding the statement's parameters {@code params}); whether it limits itself. */
  public record Branch(String sql, int[] params, boolean limited, int columns) {}

  /**
   * The cut: {@code outer} binds {@code outerParams}, where an index {@code >= statementParams}
   * stands for the JSON of branch {@code index - statementParams}; {@code concatenates} when the
   * branches' rows may simply follow each other (UNION ALL only, no ORDER BY or LIMIT, each column
   * of one and the same type in every branch). {@code operators}: "UNION ALL", "INTERSECT", ... for EXPLAIN.
   */
  public record Plan(List<Branch> branches, String outer, int[] outerParams, int statementParams, boolean concatenates,
      String operators) {
    /** "UNION", or the first other set operation the statement uses ("INTERSECT", "EXCEPT"), to name it in messages. */
    public String kind() {
      return UnionSplit.kind(operators);
    }
  }

  private final String sql;
  private final JoinSplitter.Catalog catalog;
  /** Per branch, per column: its type when it is carried as it is ("" for a literal or a computed expression). */
  private final List<List<String>> types = new ArrayList<>();

  private UnionSplit(String sql, JoinSplitter.Catalog catalog) {
    this.sql = sql;
    this.catalog = catalog;
  }

  /**
   * Whether a template is a top-level set operation: a later branch names a table, or it is one a
   * concatenation gets wrong (DISTINCT, INTERSECT, EXCEPT, a branch without FROM). Asked only of
   * statements on several shards.
   */
  public static boolean topLevel(RouteTemplate t) {
    if (t.shape().union()) {
      return true;
    }
    for (TableRef ref : t.tables()) {
      if (ref.branch() > 0) {
        return true;
      }
    }
    return false;
  }

  /** The cut of {@code sql} (plain {@code ?} markers), or null when it is no top-level set operation; a named refusal when it cannot be cut exactly. */
  public static Plan of(String sql, JoinSplitter.Catalog catalog) throws SQLException {
    Object parsed = Analyzer.parse(NumberedParameters.number(sql));
    if (!(parsed instanceof SetOperationList union)) {
      return null;
    }
    return new UnionSplit(sql, catalog).cut(union, SqlLexer.countParameters(sql));
  }

  private Plan cut(SetOperationList union, int params) throws SQLException {
    if (union.getWithItemsList() != null || union.getFetch() != null || union.getForMode() != null) {
      throw refused("WITH, FETCH or a locking clause", "run its branches as statements of their own");
    }
    for (SetOperation op : union.getOperations()) {
      if (!(op instanceof UnionOp || op instanceof IntersectOp || op instanceof ExceptOp)) {
        throw refused(op.toString(), "write it as EXCEPT, or route it to one shard with the key");
      }
    }
    List<Branch> branches = new ArrayList<>();
    StringBuilder outer = new StringBuilder();
    for (int b = 0; b < union.getSelects().size(); b++) {
      PlainSelect select = plain(union.getSelects().get(b), b);
      UnionBranch branch = new UnionBranch(sql, catalog, select, b);
      NumberedParameters.Text step = NumberedParameters.print(select); // before the combining text rewrites its columns
      branches.add(new Branch(step.sql(), step.order(), select.getLimit() != null, branch.columns()));
      types.add(branch.types());
      if (b > 0) {
        outer.append(' ').append(union.getOperations().get(b - 1)).append(' ');
      }
      outer.append(branch.outer(params + b + 1));
    }
    outer.append(tail(union));
    NumberedParameters.Text text = NumberedParameters.print(outer.toString());
    return new Plan(branches, text.sql(), text.order(), params, concatenates(union), operators(union));
  }

  private PlainSelect plain(Select branch, int b) throws SQLException {
    Select s = branch instanceof ParenthesedSelect p ? p.getSelect() : branch;
    if (!(s instanceof PlainSelect plain) || (branch instanceof ParenthesedSelect p && (p.getOrderByElements() != null
        || p.getLimit() != null || p.getOffset() != null))) {
      throw refused("branch " + (b + 1) + " that is itself a UNION, INTERSECT, EXCEPT, VALUES or WITH",
          "write it as a plain SELECT (MariaDB's precedence needs no brackets: INTERSECT binds tighter than UNION and EXCEPT)");
    }
    if (plain.getWithItemsList() != null || plain.getFetch() != null || plain.getForMode() != null
        || plain.getIntoTables() != null || (plain.getOffset() != null && plain.getLimit() == null)) {
      throw refused("branch " + (b + 1) + " with WITH, FETCH, INTO or a locking clause", "write it as a plain SELECT");
    }
    return plain;
  }

  /** The statement's own ORDER BY and LIMIT, over the union's rows. */
  private static String tail(SetOperationList union) {
    StringBuilder s = new StringBuilder();
    if (union.getOrderByElements() != null && !union.getOrderByElements().isEmpty()) {
      List<String> terms = new ArrayList<>();
      for (OrderByElement o : union.getOrderByElements()) {
        terms.add(o.toString());
      }
      s.append(" ORDER BY ").append(String.join(", ", terms));
    }
    if (union.getLimit() != null) {
      s.append(' ').append(union.getLimit().toString().strip());
    }
    if (union.getOffset() != null) {
      s.append(' ').append(union.getOffset().toString().strip());
    }
    return s.toString();
  }

  private boolean concatenates(SetOperationList union) {
    if (union.getOperations().stream().anyMatch(op -> !(op instanceof UnionOp) || !op.isAll()) || tail(union).length() > 0) {
      return false;
    }
    List<String> first = types.get(0);
    for (List<String> branch : types) {
      if (branch.size() != first.size() || branch.contains("") || !branch.equals(first)) {
        return false;
      }
    }
    return true;
  }

  private static String operators(SetOperationList union) {
    List<String> ops = new ArrayList<>();
    for (SetOperation op : union.getOperations()) {
      String s = op.toString().strip();
      if (!ops.contains(s)) {
        ops.add(s);
      }
    }
    return String.join(", ", ops);
  }

  private SQLException refused(String what, String fix) {
    return refused(sql, what, fix);
  }

  /** SHX1209 naming the statement, what in it cannot be answered and the fix. */
  static SQLException refused(String sql, String what, String fix) {
    String kind = kind(sql.toUpperCase(java.util.Locale.ROOT));
    return ShardexError.UNSUPPORTED.exception((kind.equals("UNION") ? "a " : "an ") + kind + " across shards ('"
        + SqlLexer.abbreviate(sql) + "') with " + what, fix);
  }

  private static final java.util.regex.Pattern SET_WORD = java.util.regex.Pattern.compile("\\b(INTERSECT|EXCEPT)\\b");

  /** "INTERSECT" or "EXCEPT" when the text (upper case) uses one, else "UNION": how messages name the statement. */
  static String kind(String text) {
    java.util.regex.Matcher m = SET_WORD.matcher(text);
    return m.find() ? m.group() : "UNION";
  }
}
