package dev.shardex.driver.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.shardex.driver.differential.GeneratedQuery.Order;
import dev.shardex.sandbox.SandboxCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every acceptance shape of the cross-shard join research (joins-research.md §7, T1-T25) over its
 * data traps ({@link JoinShapesData}), with bound values drawn from four seeds, through Shardex on
 * a 4-shard sandbox and on one plain server holding all rows. A shape Shardex answers must answer
 * as the server does (rows, order where the statement fixes it, labels, types); one it cannot
 * answer must be refused by name. The refused share is reported by reason in
 * {@code target/join-shapes-report.txt}.
 */
class JoinShapesTest {
  /** Seeds of the bound values: -Djoinshapes.seeds=1,2 (four by default). */
  static final List<Long> SEEDS = java.util.Arrays.stream(System.getProperty("joinshapes.seeds", "1,2,3,4").split(","))
      .map(String::trim).map(Long::valueOf).toList();
  static final Path REPORT = Path.of("target", "join-shapes-report.txt");

  /** One shape: its text with {S} a seller, {B} a buyer, {U} a user, {V} a list of users; how rows compare. */
  record Shape(String id, String sql, Order order, Set<Integer> folded, String session) {
    Shape(String id, String sql, Order order) {
      this(id, sql, order, Set.of(), null);
    }

    /**
     * The aggregate columns: their values are compared, their SQL type attributes are noted only
     * (as in {@link DifferentialTest}: a merged AVG's precision is the merge's to match, not yet exact).
     */
    Set<Integer> aggregates() {
      return switch (id) {
        case "T5" -> Set.of(1, 2, 3, 4);
        case "T6" -> Set.of(0);
        case "T15" -> Set.of(1, 2);
        case "T19" -> Set.of(0, 1, 2);
        case "T20" -> Set.of(1);
        case "T21", "T22", "T23" -> Set.of(1);
        default -> Set.of();
      };
    }
  }

  static final List<Shape> SHAPES = List.of(
      new Shape("T1", "SELECT o.id, o.total, u.name FROM orders o JOIN users u ON o.buyer_id = u.id WHERE o.seller_id = {S}",
          Order.NONE),
      new Shape("T2", "SELECT o.id, o.total, u.name FROM orders o LEFT JOIN users u ON o.buyer_id = u.id WHERE o.seller_id = {S}",
          Order.NONE),
      new Shape("T3", "SELECT o.*, u.name FROM orders o JOIN users u ON o.buyer_id = u.id WHERE o.status = 'open'"
          + " ORDER BY o.created_at DESC, o.id DESC LIMIT 20 OFFSET 40", Order.TOTAL),
      new Shape("T4", "SELECT o.*, u.name FROM orders o LEFT JOIN users u ON o.buyer_id = u.id WHERE o.status = 'open'"
          + " ORDER BY o.created_at DESC, o.id DESC LIMIT 20 OFFSET 40", Order.TOTAL),
      new Shape("T5", "SELECT u.country, COUNT(*), SUM(o.total), MAX(o.total), AVG(o.total) FROM orders o JOIN users u"
          + " ON o.buyer_id = u.id GROUP BY u.country ORDER BY u.country", Order.TOTAL),
      new Shape("T6", "SELECT COUNT(*) FROM orders o JOIN users u ON o.buyer_id = u.id WHERE u.status = 'active'",
          Order.NONE),
      new Shape("T7", "SELECT * FROM users WHERE id IN (SELECT buyer_id FROM orders WHERE seller_id = {S})", Order.NONE),
      new Shape("T8", "SELECT u.id, u.name FROM users u WHERE EXISTS (SELECT 1 FROM orders o WHERE o.buyer_id = u.id"
          + " AND o.total > 100)", Order.NONE),
      new Shape("T9", "SELECT u.id FROM users u WHERE u.id NOT IN (SELECT buyer_id FROM orders WHERE seller_id = {S})"
          + " AND u.country = 'NL'", Order.NONE),
      new Shape("T10", "SELECT u.id FROM users u WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.buyer_id = u.id)",
          Order.NONE),
      new Shape("T11", "SELECT o.id, c.owner_id, c.pct FROM orders o JOIN coupons c ON c.code = o.coupon"
          + " WHERE o.seller_id = {S}", Order.NONE),
      new Shape("T12", "SELECT o.id, c.pct FROM orders o JOIN coupons c ON c.owner_id = o.seller_id AND c.code = o.coupon"
          + " WHERE o.seller_id IN ({S}, {S2})", Order.NONE),
      new Shape("T13", "SELECT u.id, u.name, r.name AS referrer FROM users u LEFT JOIN users r ON r.id = u.referrer_id"
          + " WHERE u.id IN ({V})", Order.NONE),
      new Shape("T14", "SELECT g.code, g.name, u.id FROM countries g LEFT JOIN users u ON u.country = g.code"
          + " AND u.status = 'vip' ORDER BY g.code, u.id", Order.TOTAL),
      new Shape("T15", "SELECT g.code, COUNT(u.id), COUNT(*) FROM countries g LEFT JOIN users u ON u.country = g.code"
          + " GROUP BY g.code", Order.NONE),
      new Shape("T16", "SELECT id, name FROM users WHERE status = 'vip' UNION SELECT buyer_id, NULL FROM orders"
          + " WHERE total > 500", Order.NONE, Set.of(1), null),
      new Shape("T17", "(SELECT id, created_at FROM orders WHERE seller_id = {S} ORDER BY created_at DESC LIMIT 10)"
          + " UNION ALL (SELECT id, created_at FROM orders WHERE buyer_id = {B} ORDER BY created_at DESC LIMIT 10)"
          + " ORDER BY created_at DESC LIMIT 10", Order.TOTAL),
      new Shape("T18", "SELECT code, name FROM countries UNION ALL SELECT country, name FROM users WHERE id = {U}",
          Order.NONE),
      new Shape("T19", "SELECT AVG(cnt), MAX(cnt), COUNT(*) FROM (SELECT buyer_id, COUNT(*) AS cnt FROM orders"
          + " GROUP BY buyer_id) t", Order.NONE),
      new Shape("T20", "WITH top AS (SELECT seller_id, SUM(total) AS s FROM orders GROUP BY seller_id ORDER BY s DESC"
          + " LIMIT 5) SELECT u.name, top.s FROM top JOIN users u ON u.id = top.seller_id ORDER BY top.s DESC", Order.NONE),
      new Shape("T21", "SELECT seller_id, GROUP_CONCAT(DISTINCT sku ORDER BY sku SEPARATOR '/') FROM order_items"
          + " GROUP BY seller_id", Order.NONE),
      new Shape("T22", "SELECT o.status, GROUP_CONCAT(DISTINCT oi.sku ORDER BY oi.sku SEPARATOR ', ') FROM orders o"
          + " JOIN order_items oi ON oi.seller_id = o.seller_id AND oi.order_id = o.id GROUP BY o.status", Order.NONE,
          Set.of(0), "SET SESSION group_concat_max_len = 24"),
      new Shape("T23", "SELECT u.country, COUNT(DISTINCT o.seller_id) FROM orders o JOIN users u ON u.id = o.buyer_id"
          + " GROUP BY u.country", Order.NONE),
      new Shape("T24", "SELECT o.id, u.name FROM orders o JOIN users u ON o.buyer_id = u.id WHERE o.seller_id = {S}"
          + " FOR UPDATE", Order.NONE),
      new Shape("T25", "SELECT o.id FROM orders o JOIN users u ON o.total > u.credit_limit WHERE u.id = {U}",
          Order.NONE),
      // beyond §7: subqueries correlated by several columns, correlated IN, = ANY / <> ALL (NULL
      // referrers and buyers, a dangling buyer, self-referrers, collation twins, an empty pull-out)
      new Shape("Q1", "SELECT u.id, u.name FROM users u WHERE EXISTS (SELECT 1 FROM orders o WHERE o.buyer_id = u.id"
          + " AND o.seller_id = u.referrer_id)", Order.NONE),
      new Shape("Q2", "SELECT u.id FROM users u WHERE u.country = 'NL' AND NOT EXISTS (SELECT 1 FROM orders o"
          + " WHERE o.seller_id = u.referrer_id AND u.id = o.buyer_id AND o.total > 100)", Order.NONE),
      new Shape("Q3", "SELECT o.id, o.coupon FROM orders o WHERE o.seller_id = {S} AND EXISTS (SELECT 1 FROM coupons c"
          + " WHERE c.owner_id = o.buyer_id AND c.code = o.coupon)", Order.NONE),
      new Shape("Q4", "SELECT u.id FROM users u WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.buyer_id = u.id"
          + " AND o.seller_id = u.referrer_id AND o.total < 0) AND u.id <= {U}", Order.NONE),
      new Shape("Q5", "SELECT u.id, u.status FROM users u WHERE u.referrer_id IN (SELECT o.seller_id FROM orders o"
          + " WHERE o.buyer_id = u.id) AND u.status <> 'vip'", Order.NONE),
      new Shape("Q6", "SELECT u.id, u.name FROM users u WHERE u.id = ANY (SELECT o.buyer_id FROM orders o"
          + " WHERE o.seller_id = {S})", Order.NONE),
      new Shape("Q7", "SELECT u.id FROM users u WHERE u.country = 'NL' AND u.id <> ALL (SELECT buyer_id FROM orders"
          + " WHERE seller_id = {S} AND buyer_id IS NOT NULL)", Order.NONE),
      new Shape("Q8", "SELECT u.id FROM users u WHERE u.country = 'NL' AND u.id <> ALL (SELECT buyer_id FROM orders"
          + " WHERE seller_id = {S})", Order.NONE),
      new Shape("Q9", "SELECT o.id FROM orders o WHERE o.seller_id = {S} AND o.total > ALL (SELECT total FROM orders"
          + " WHERE buyer_id = {B})", Order.NONE),
      new Shape("Q10", "SELECT u.id FROM users u WHERE u.credit_limit < ANY (SELECT o.total FROM orders o"
          + " WHERE o.seller_id = {S})", Order.NONE),
      new Shape("Q11", "SELECT u.id FROM users u WHERE u.id >= ALL (SELECT buyer_id FROM orders WHERE seller_id = {S}"
          + " AND buyer_id IS NOT NULL)", Order.NONE));

  enum Status { EQUAL, REFUSED, WRONG, UNNAMED_ERROR, ORACLE_ERROR }

  record Outcome(String shape, String sql, Status status, String detail) {}

  static Connection oracle;
  static Connection shardex;
  static final List<Outcome> outcomes = new ArrayList<>();

  @BeforeAll
  static void loadAndRun() throws Exception {
    JoinShapesData data = new JoinShapesData();
    oracle = SandboxCluster.shared("oracle", 1).connectShard(0);
    try (Statement s = oracle.createStatement()) {
      s.execute("CREATE DATABASE IF NOT EXISTS join_shapes");
      s.execute("USE join_shapes");
    }
    data.load(oracle, false);
    shardex = DriverManager.getConnection("jdbc:shardex:sandbox:joinshapes?shards=4");
    data.load(shardex, true);
    for (long seed : SEEDS) {
      Random r = new Random(seed);
      for (Shape shape : SHAPES) {
        outcomes.add(run(shape, bind(shape.sql(), r)));
      }
    }
    Files.createDirectories(REPORT.getParent());
    Files.writeString(REPORT, report(), StandardCharsets.UTF_8);
    System.out.println(summary());
  }

  @AfterAll
  static void close() throws SQLException {
    if (shardex != null) {
      shardex.close();
    }
    if (oracle != null) {
      try (Statement s = oracle.createStatement()) {
        s.execute("DROP DATABASE IF EXISTS join_shapes");
      }
      oracle.close();
    }
  }

  /** The shape's text with drawn values: sellers (the skewed one a quarter of the time), buyers, users. */
  static String bind(String sql, Random r) {
    long seller = r.nextInt(4) == 0 ? JoinShapesData.SKEWED_SELLER : 1 + r.nextInt(JoinShapesData.SELLERS + 2);
    List<String> users = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      users.add(Long.toString(1 + r.nextInt(JoinShapesData.USERS + 3)));
    }
    return sql.replace("{S2}", Long.toString(1 + r.nextInt(JoinShapesData.SELLERS))).replace("{S}", Long.toString(seller))
        .replace("{B}", Long.toString(1 + r.nextInt(JoinShapesData.USERS))).replace("{U}", users.get(0))
        .replace("{V}", String.join(", ", users));
  }

  static Outcome run(Shape shape, String sql) throws SQLException {
    GeneratedQuery q = new GeneratedQuery(sql, shape.order(), List.of(), shape.aggregates(), shape.folded(), "join shape",
        shape.id());
    session(shape.session());
    try {
      ResultSnapshot expected;
      try {
        expected = query(oracle, sql);
      } catch (SQLException e) {
        return new Outcome(shape.id(), sql, Status.ORACLE_ERROR, e.getMessage());
      }
      ResultSnapshot actual;
      try {
        actual = query(shardex, sql);
      } catch (SQLException e) {
        String m = String.valueOf(e.getMessage());
        return m.startsWith("Shardex SHX")
            ? new Outcome(shape.id(), sql, Status.REFUSED, m)
            : new Outcome(shape.id(), sql, Status.UNNAMED_ERROR, e.getSQLState() + " " + m);
      }
      Comparison c = Comparison.of(q, expected, actual);
      return c.equal() ? new Outcome(shape.id(), sql, Status.EQUAL, "")
          : new Outcome(shape.id(), sql, Status.WRONG, c.describe());
    } finally {
      session(shape.session() == null ? null : "SET SESSION group_concat_max_len = DEFAULT");
    }
  }

  private static void session(String set) throws SQLException {
    if (set != null) {
      for (Connection c : List.of(oracle, shardex)) {
        try (Statement s = c.createStatement()) {
          s.execute(set);
        }
      }
    }
  }

  private static ResultSnapshot query(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return ResultSnapshot.read(rs);
    }
  }

  /** Refusals by SHX id and shape, e.g. "SHX1206: T8 T10". */
  static Map<String, List<String>> refusedByReason() {
    Map<String, List<String>> by = new TreeMap<>();
    for (Outcome o : outcomes) {
      if (o.status() == Status.REFUSED) {
        String id = o.detail().substring("Shardex ".length(), "Shardex SHXnnnn".length());
        List<String> shapes = by.computeIfAbsent(id, k -> new ArrayList<>());
        if (!shapes.contains(o.shape())) {
          shapes.add(o.shape());
        }
      }
    }
    return by;
  }

  static String summary() {
    Map<Status, Integer> n = new TreeMap<>();
    for (Outcome o : outcomes) {
      n.merge(o.status(), 1, Integer::sum);
    }
    return String.format(Locale.ROOT, "join shapes: %d statements (%d shapes x %d seeds): %s; refused %.0f%% by reason %s",
        outcomes.size(), SHAPES.size(), SEEDS.size(), n, 100.0 * n.getOrDefault(Status.REFUSED, 0) / outcomes.size(),
        refusedByReason());
  }

  private static String report() {
    StringBuilder s = new StringBuilder(summary()).append("\n\n");
    for (Outcome o : outcomes) {
      s.append(o.shape()).append(' ').append(o.status()).append(": ").append(o.sql()).append('\n');
      if (!o.detail().isEmpty()) {
        s.append("    ").append(o.detail().replace("\n", "\n    ")).append('\n');
      }
    }
    return s.toString();
  }

  @Test
  void noShapeIsAnsweredWrongly() {
    assertEquals(List.of(), outcomes.stream().filter(o -> o.status() == Status.WRONG).map(o -> o.shape() + ": " + o.sql()
        + "\n  " + o.detail()).toList());
  }

  @Test
  void everyRefusalIsNamedAndTheOracleAcceptsEveryShape() {
    assertEquals(List.of(), outcomes.stream().filter(o -> o.status() == Status.UNNAMED_ERROR
        || o.status() == Status.ORACLE_ERROR).map(o -> o.status() + " " + o.shape() + ": " + o.detail()).toList());
  }

  @Test
  void aLockingReadAcrossStepsIsRefused() {
    assertEquals(List.of(Status.REFUSED), outcomes.stream().filter(o -> o.shape().equals("T24")).map(Outcome::status)
        .distinct().toList());
  }
}
