package dev.shardex.driver.sql;

import java.util.List;
import java.util.Map;

/**
 * A statement analysed once, reusable for every execution of the same text: what it does, the
 * tables it names, the key predicates and join equalities it AND-s in, and, for writes, the
 * written table, the inserted rows and the assigned columns. Values are {@link ValueSource}s, so
 * the template holds no execution's data; the router pairs it with each execution's values.
 *
 * <p>{@code parseError} is set only for unparseable statements that carry a routing hint.
 *
 * <p>The template knows no catalog: whether a table is SHARDED, and on which column, is looked up
 * at route time, so declaring a table never invalidates cached templates. The route stage keeps
 * what it derived from the catalog for this template in {@code routeSlot}, tagged with the
 * catalog's version, and derives it again when the version moves.
 *
 * <p>{@code functions} holds the {@link SessionFunctions} bits of the text (0 for nearly every
 * statement): read once here, so statements without them pay nothing per execution.
 */
public record RouteTemplate(
    StatementType type,
    int parameterCount,
    List<TableRef> tables,
    int[] scopeParents,
    List<KeyPredicate> keys,
    List<ColumnLink> links,
    int target,
    List<String> insertColumns,
    List<List<ValueSource>> insertRows,
    boolean insertSelect,
    Map<String, ValueSource> assignments,
    SelectShape shape,
    boolean writeLimit,
    Hints hints,
    Ddl ddl,
    java.sql.SQLException parseError,
    boolean insertIgnore,
    RouteSlot routeSlot,
    int functions,
    List<ColumnRef> insertSelectColumns) {

  /** The route stage's per-template memo (its binding to the catalog); opaque to this package. */
  public static final class RouteSlot {
    private volatile Object value;

    public Object get() {
      return value;
    }

    public void set(Object v) {
      value = v;
    }

    @Override
    public String toString() {
      return "RouteSlot";
    }
  }

  public RouteTemplate(StatementType type, int parameterCount, List<TableRef> tables, int[] scopeParents,
      List<KeyPredicate> keys, List<ColumnLink> links, int target, List<String> insertColumns,
      List<List<ValueSource>> insertRows, boolean insertSelect, Map<String, ValueSource> assignments, SelectShape shape,
      boolean writeLimit, Hints hints, Ddl ddl, java.sql.SQLException parseError, boolean insertIgnore) {
    this(type, parameterCount, tables, scopeParents, keys, links, target, insertColumns, insertRows, insertSelect,
        assignments, shape, writeLimit, hints, ddl, parseError, insertIgnore, new RouteSlot(), 0, List.of());
  }

  /** The same template, knowing the session functions its text uses. */
  RouteTemplate withFunctions(int bits) {
    return bits == functions ? this : new RouteTemplate(type, parameterCount, tables, scopeParents, keys, links, target,
        insertColumns, insertRows, insertSelect, assignments, shape, writeLimit, hints, ddl, parseError, insertIgnore,
        routeSlot, bits, insertSelectColumns);
  }

  /**
   * The same INSERT ... SELECT, knowing per select item the column it shows as is (null for any
   * other item): the router runs it whole on one shard when the key comes unchanged from a source key.
   */
  RouteTemplate withInsertSelectColumns(List<ColumnRef> columns) {
    return new RouteTemplate(type, parameterCount, tables, scopeParents, keys, links, target, insertColumns, insertRows,
        insertSelect, assignments, shape, writeLimit, hints, ddl, parseError, insertIgnore, routeSlot, functions,
        java.util.Collections.unmodifiableList(new java.util.ArrayList<>(columns)));
  }

  /** Whether the text reads a session value ({@code LAST_INSERT_ID()}, ...): substitute it before routing. */
  public boolean readsSession() {
    return (functions & SessionFunctions.READS) != 0;
  }

  public RouteTemplate(StatementType type, int parameterCount, List<TableRef> tables, int[] scopeParents,
      List<KeyPredicate> keys, List<ColumnLink> links, int target, List<String> insertColumns,
      List<List<ValueSource>> insertRows, boolean insertSelect, Map<String, ValueSource> assignments, SelectShape shape,
      boolean writeLimit, Hints hints, Ddl ddl, java.sql.SQLException parseError) {
    this(type, parameterCount, tables, scopeParents, keys, links, target, insertColumns, insertRows, insertSelect,
        assignments, shape, writeLimit, hints, ddl, parseError, false);
  }

  /** The same INSERT, marked INSERT IGNORE. */
  RouteTemplate ignoring() {
    return new RouteTemplate(type, parameterCount, tables, scopeParents, keys, links, target, insertColumns, insertRows,
        insertSelect, assignments, shape, writeLimit, hints, ddl, parseError, true, routeSlot, functions, insertSelectColumns);
  }

  /** Whether the write may replace or skip a row another row collides with (REPLACE, ON DUPLICATE KEY, IGNORE). */
  public String upsertKind() {
    if (type == StatementType.REPLACE) {
      return "REPLACE";
    }
    if (type == StatementType.INSERT && !assignments.isEmpty()) {
      return "INSERT ... ON DUPLICATE KEY UPDATE";
    }
    return insertIgnore ? "INSERT IGNORE" : null;
  }

  public static RouteTemplate simple(StatementType type, int parameterCount, Hints hints, Ddl ddl) {
    return new RouteTemplate(type, parameterCount, List.of(), new int[] {-1}, List.of(), List.of(), -1, List.of(),
        List.of(), false, Map.of(), SelectShape.NONE, false, hints, ddl, null);
  }

  /**
   * A statement JSqlParser cannot parse but that carries a routing hint: usable only when hints
   * are honoured; otherwise routing raises {@code parseError}.
   */
  public static RouteTemplate unparsed(StatementType type, Hints hints, java.sql.SQLException parseError) {
    return new RouteTemplate(type, 0, List.of(), new int[] {-1}, List.of(), List.of(), -1, List.of(), List.of(), false,
        Map.of(), SelectShape.NONE, false, hints, null, parseError);
  }

  public TableRef targetTable() {
    return target < 0 ? null : tables.get(target);
  }
}
