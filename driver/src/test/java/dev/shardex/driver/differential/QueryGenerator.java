package dev.shardex.driver.differential;

import dev.shardex.driver.differential.GeneratedQuery.Order;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * A seeded generator of SELECTs over {@link DifferentialData}'s tables: random combinations of
 * WHERE (with and without the key: {@code =}, {@code IN}, OR-ed with other predicates; ranges,
 * IS NULL, LIKE, IN, OR groups; rarely a semi-join {@code key IN (SELECT user_id FROM users ..)} or
 * a correlated [NOT] EXISTS on (user_id, post_id)), ORDER BY (selected and non-selected columns,
 * expressions, aliases, positions, column names in upper case, ASC/DESC, NULL-holding columns,
 * several keys), LIMIT n [OFFSET m] / LIMIT m, n, aggregates (COUNT(*), COUNT(col), COUNT(DISTINCT
 * col), SUM, MIN, MAX, AVG, rarely SUM/AVG(DISTINCT) and expressions over aggregates such as
 * MAX(x) - MIN(x), SUM(x) / COUNT(*), ROUND(AVG(x), 1)), GROUP BY (columns, YEAR(..), by alias, by
 * position), HAVING (on selected and non-selected aggregates, on aliases; also without GROUP BY),
 * DISTINCT, co-located joins and joins with the GLOBAL table (including, rarely, the GLOBAL table
 * on the preserved side of a LEFT JOIN, which a plain concatenation would answer wrongly).
 *
 * <p>Every query is deterministic enough to compare with one server: LIMIT is only generated
 * when the ORDER BY determines the row order (a unique tiebreaker, or every GROUP BY / DISTINCT
 * column among the keys), and {@link GeneratedQuery} says how strictly the order may be
 * compared. No query selects a column that is neither grouped nor aggregated.
 */
public final class QueryGenerator {
  public static final long SEED = 7_001L;

  enum Kind { KEY, ID, INT, DECIMAL, STRING, DATE, DATETIME }

  /** A column as a query names it ({@code expr}, maybe qualified) and what values it holds. */
  record Col(String expr, String name, Kind kind, boolean nullable) {
    boolean numeric() {
      return kind == Kind.INT || kind == Kind.DECIMAL || kind == Kind.KEY || kind == Kind.ID;
    }
  }

  /**
   * A FROM clause: its columns, the columns that together identify a row (the tiebreaker), the
   * key column predicates may name (null: GLOBAL only) and the columns worth grouping by.
   */
  record Source(String label, String from, List<Col> cols, List<Col> unique, Col key, List<Col> groupable,
      boolean single) {}

  /** A result column: its select-list text, alias (or null), and comparison flags. */
  private record Out(String text, String alias, String expr, Kind kind, boolean aggregate, boolean fold) {
    String label() {
      return alias != null ? alias : text;
    }
  }

  private final Random r;
  private final DifferentialData data;
  private final List<Long> users;
  private final List<Long> posts;
  private final List<Source> sources = new ArrayList<>();
  private final List<Integer> sourceWeights = new ArrayList<>();
  private int aliasCounter;

  public QueryGenerator(DifferentialData data, long seed) {
    this.data = data;
    this.r = new Random(seed);
    this.users = data.userIds();
    this.posts = data.postIds();
    defineSources();
  }

  // ---------------------------------------------------------------- the schema as the generator sees it

  private static Col c(String qualifier, String name, Kind kind, boolean nullable) {
    return new Col(qualifier == null ? name : qualifier + "." + name, name, kind, nullable);
  }

  private static List<Col> usersCols(String q, boolean nullable) {
    return List.of(c(q, "user_id", Kind.KEY, nullable), c(q, "name", Kind.STRING, nullable),
        c(q, "country_code", Kind.STRING, true), c(q, "score", Kind.INT, true), c(q, "balance", Kind.DECIMAL, true),
        c(q, "created", Kind.DATE, nullable));
  }

  private static List<Col> postsCols(String q, boolean nullable) {
    return List.of(c(q, "post_id", Kind.ID, nullable), c(q, "user_id", Kind.KEY, nullable),
        c(q, "title", Kind.STRING, nullable), c(q, "likes", Kind.INT, true), c(q, "rating", Kind.DECIMAL, true),
        c(q, "category", Kind.STRING, true), c(q, "created", Kind.DATETIME, nullable));
  }

  private static List<Col> commentsCols(String q, boolean nullable) {
    return List.of(c(q, "comment_id", Kind.ID, nullable), c(q, "user_id", Kind.KEY, nullable),
        c(q, "post_id", Kind.ID, nullable), c(q, "body", Kind.STRING, nullable), c(q, "stars", Kind.INT, true));
  }

  private static List<Col> countriesCols(String q, boolean nullable) {
    return List.of(c(q, "code", Kind.STRING, nullable), c(q, "name", Kind.STRING, nullable),
        c(q, "region", Kind.STRING, true));
  }

  private static Col find(List<Col> cols, String expr) {
    for (Col col : cols) {
      if (col.expr().equals(expr)) {
        return col;
      }
    }
    throw new IllegalArgumentException(expr);
  }

  private static List<Col> pick(List<Col> cols, String... exprs) {
    List<Col> out = new ArrayList<>();
    for (String e : exprs) {
      out.add(find(cols, e));
    }
    return out;
  }

  private static List<Col> concat(List<Col> a, List<Col> b) {
    List<Col> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  private void add(int weight, Source s) {
    sources.add(s);
    sourceWeights.add(weight);
  }

  /** Joins not on the key: generated apart ({@link #generateCrossShard}), so the main set stays as it was. */
  private final List<Source> crossShardSources = new ArrayList<>();
  private boolean crossShard;

  private void addCrossShard(Source s) {
    crossShardSources.add(s);
  }

  /** {@code count} distinct queries over the cross-shard join sources, after {@link #generate}. */
  public List<GeneratedQuery> generateCrossShard(int count) {
    crossShard = true;
    try {
      List<GeneratedQuery> out = new ArrayList<>();
      for (GeneratedQuery q : generate(count)) {
        if (q.origin().startsWith("generated")) {
          out.add(q);
        }
      }
      return out;
    } finally {
      crossShard = false;
    }
  }

  private void defineSources() {
    for (String q : new String[] {null, "u"}) {
      List<Col> cols = usersCols(q, false);
      String p = q == null ? "" : "u.";
      add(9, new Source("users", q == null ? "users" : "users u", cols, pick(cols, p + "user_id"),
          find(cols, p + "user_id"), pick(cols, p + "name", p + "country_code", p + "score", p + "created"), true));
    }
    for (String q : new String[] {null, "p"}) {
      List<Col> cols = postsCols(q, false);
      String p = q == null ? "" : "p.";
      add(12, new Source("posts", q == null ? "posts" : "posts p", cols, pick(cols, p + "post_id"),
          find(cols, p + "user_id"), pick(cols, p + "user_id", p + "category", p + "likes", p + "title"), true));
    }
    for (String q : new String[] {null, "c"}) {
      List<Col> cols = commentsCols(q, false);
      String p = q == null ? "" : "c.";
      add(6, new Source("comments", q == null ? "comments" : "comments c", cols, pick(cols, p + "comment_id"),
          find(cols, p + "user_id"), pick(cols, p + "user_id", p + "post_id", p + "stars", p + "body"), true));
    }
    List<Col> countries = countriesCols(null, false);
    add(3, new Source("countries", "countries", countries, pick(countries, "code"), null,
        pick(countries, "region", "name"), true));

    // posts + comments, co-located on (user_id, post_id).
    List<Col> pc = concat(postsCols("p", false), pick(commentsCols("c", false), "c.comment_id", "c.body", "c.stars"));
    add(8, new Source("posts JOIN comments", "posts p JOIN comments c ON p.user_id = c.user_id AND p.post_id = c.post_id",
        pc, pick(pc, "c.comment_id"), find(pc, "p.user_id"), pick(pc, "p.category", "c.stars", "p.user_id", "p.likes"), false));
    List<Col> cp = concat(pick(commentsCols("c", false), "c.comment_id", "c.user_id", "c.post_id", "c.body", "c.stars"),
        pick(postsCols("p", false), "p.title", "p.likes", "p.category", "p.created"));
    add(4, new Source("comments JOIN posts", "comments c JOIN posts p ON c.post_id = p.post_id AND c.user_id = p.user_id",
        cp, pick(cp, "c.comment_id"), find(cp, "c.user_id"), pick(cp, "p.category", "c.stars", "c.user_id"), false));
    List<Col> pcl = concat(postsCols("p", false), pick(commentsCols("c", true), "c.comment_id", "c.body", "c.stars"));
    add(4, new Source("posts LEFT JOIN comments",
        "posts p LEFT JOIN comments c ON c.user_id = p.user_id AND c.post_id = p.post_id",
        pcl, pick(pcl, "p.post_id", "c.comment_id"), find(pcl, "p.user_id"),
        pick(pcl, "p.post_id", "p.category", "c.stars", "p.user_id"), false));

    // users + posts, co-located on user_id.
    List<Col> up = concat(usersCols("u", false), pick(postsCols("p", false), "p.post_id", "p.title", "p.likes",
        "p.rating", "p.category", "p.created"));
    add(6, new Source("users JOIN posts", "users u JOIN posts p ON p.user_id = u.user_id", up, pick(up, "p.post_id"),
        find(up, "u.user_id"), pick(up, "u.name", "u.country_code", "p.category", "u.user_id"), false));
    List<Col> upl = concat(usersCols("u", false), pick(postsCols("p", true), "p.post_id", "p.title", "p.likes",
        "p.category"));
    add(3, new Source("users LEFT JOIN posts", "users u LEFT JOIN posts p ON u.user_id = p.user_id", upl,
        pick(upl, "u.user_id", "p.post_id"), find(upl, "u.user_id"), pick(upl, "u.country_code", "p.category", "u.user_id"),
        false));

    // users + countries (GLOBAL), inner and outer with the SHARDED side preserved.
    List<Col> uc = concat(usersCols("u", false), pick(countriesCols("co", false), "co.name", "co.region"));
    add(6, new Source("users JOIN countries", "users u JOIN countries co ON co.code = u.country_code", uc,
        pick(uc, "u.user_id"), find(uc, "u.user_id"), pick(uc, "co.region", "co.name", "u.country_code", "u.score"),
        false));
    List<Col> ucl = concat(usersCols("u", false), pick(countriesCols("co", true), "co.name", "co.region"));
    add(4, new Source("users LEFT JOIN countries", "users u LEFT JOIN countries co ON u.country_code = co.code", ucl,
        pick(ucl, "u.user_id"), find(ucl, "u.user_id"), pick(ucl, "co.region", "u.country_code", "u.name"), false));

    // posts + users + countries.
    List<Col> puc = concat(pick(postsCols("p", false), "p.post_id", "p.user_id", "p.title", "p.likes", "p.category"),
        concat(pick(usersCols("u", false), "u.name", "u.score"), pick(countriesCols("co", true), "co.region")));
    add(3, new Source("posts JOIN users LEFT JOIN countries",
        "posts p JOIN users u ON u.user_id = p.user_id LEFT JOIN countries co ON co.code = u.country_code", puc,
        pick(puc, "p.post_id"), find(puc, "p.user_id"), pick(puc, "co.region", "p.category", "u.name"), false));

    // comments + posts joined on post_id alone, which is not the key: their rows may live apart,
    // so the cross-shard lookup join answers (posts fetched by post_id IN (...) on every shard).
    List<Col> cpx = concat(pick(commentsCols("c", false), "c.comment_id", "c.user_id", "c.post_id", "c.body", "c.stars"),
        pick(postsCols("p", false), "p.title", "p.likes", "p.category", "p.created"));
    addCrossShard(new Source("comments JOIN posts not on the key", "comments c JOIN posts p ON p.post_id = c.post_id",
        cpx, pick(cpx, "c.comment_id"), find(cpx, "c.user_id"), pick(cpx, "p.category", "c.stars", "c.user_id"), false));
    List<Col> cpl = concat(pick(commentsCols("c", false), "c.comment_id", "c.user_id", "c.post_id", "c.stars"),
        pick(postsCols("p", true), "p.title", "p.likes", "p.category"));
    addCrossShard(new Source("comments LEFT JOIN posts not on the key", "comments c LEFT JOIN posts p ON c.post_id = p.post_id",
        cpl, pick(cpl, "c.comment_id"), find(cpl, "c.user_id"), pick(cpl, "c.stars", "c.user_id"), false));

    // The GLOBAL table on the preserved side of an outer join: its unmatched rows exist on every
    // shard, so a plain concatenation would repeat them. Rarely generated, on purpose.
    List<Col> cu = concat(countriesCols("co", false), pick(usersCols("u", true), "u.user_id", "u.name", "u.score"));
    add(2, new Source("countries LEFT JOIN users", "countries co LEFT JOIN users u ON u.country_code = co.code", cu,
        pick(cu, "co.code", "u.user_id"), null, pick(cu, "co.code", "co.region"), false));
  }

  // ---------------------------------------------------------------- generation

  /** The hand-written edge cases followed by {@code count} distinct random queries. */
  public List<GeneratedQuery> generate(int count) {
    List<GeneratedQuery> out = new ArrayList<>(new FixedCases(data).all());
    Set<String> seen = new LinkedHashSet<>();
    for (GeneratedQuery q : out) {
      seen.add(q.sql());
    }
    int n = 0;
    int attempts = 0;
    while (n < count) {
      if (++attempts > count * 20) {
        throw new IllegalStateException("the generator keeps repeating itself after " + n + " queries");
      }
      aliasCounter = 0;
      Source s = pickSource();
      double shape = r.nextDouble();
      Draft d;
      if (shape < 0.40) {
        d = plain(s, false);
      } else if (shape < 0.50) {
        d = plain(s, true);
      } else if (shape < 0.65) {
        d = aggregates(s);
      } else {
        d = grouped(s);
      }
      if (seen.add(d.sql)) {
        n++;
        String origin = crossShard ? "generated cross-shard join #" : "generated #";
        out.add(new GeneratedQuery(d.sql, d.order, d.orderKeys, d.aggregates, d.folded, d.route, origin + n));
      }
    }
    return out;
  }

  private Source pickSource() {
    if (crossShard) {
      return crossShardSources.get(r.nextInt(crossShardSources.size()));
    }
    int total = 0;
    for (int w : sourceWeights) {
      total += w;
    }
    int x = r.nextInt(total);
    for (int i = 0; i < sources.size(); i++) {
      x -= sourceWeights.get(i);
      if (x < 0) {
        return sources.get(i);
      }
    }
    throw new AssertionError();
  }

  /** A query being built. */
  private static final class Draft {
    String sql;
    Order order = Order.NONE;
    List<Integer> orderKeys = List.of();
    Set<Integer> aggregates = new TreeSet<>();
    Set<Integer> folded = new TreeSet<>();
    String route;
  }

  /** An ORDER BY key: its text and the result column it names (-1: not selected). */
  private record Key(String text, int out) {}

  private String alias() {
    return "x_" + (++aliasCounter);
  }

  private <T> T any(List<T> list) {
    return list.get(r.nextInt(list.size()));
  }

  private boolean chance(double p) {
    return r.nextDouble() < p;
  }

  private String dir() {
    double x = r.nextDouble();
    return x < 0.4 ? " DESC" : x < 0.55 ? " ASC" : "";
  }

  // ---------------------------------------------------------------- WHERE

  private String where(Source s, Draft d) {
    List<String> conj = new ArrayList<>();
    d.route = s.key() == null ? (s.label().equals("countries") ? "global only" : "no key") : "no key";
    if (s.key() != null) {
      double k = r.nextDouble();
      if (k < 0.22) {
        conj.add(s.key().expr() + " = " + keyValue());
        d.route = "key=";
      } else if (k < 0.38) {
        conj.add(s.key().expr() + " IN (" + keyList() + ")");
        d.route = "key IN";
      } else if (k < 0.43) {
        conj.add("(" + s.key().expr() + " = " + keyValue() + " OR " + predicate(s) + ")");
        d.route = "key OR ...";
      }
    }
    // Fewer extra predicates when the key already narrows the rows, so most answers are not empty.
    boolean keyed = !conj.isEmpty();
    double x = r.nextDouble();
    int n = keyed ? (x < 0.45 ? 0 : x < 0.9 ? 1 : 2) : (x < 0.3 ? 0 : x < 0.8 ? 1 : 2);
    for (int i = 0; i < n; i++) {
      conj.add(predicate(s));
    }
    if (chance(0.15)) {
      conj.add("(" + predicate(s) + " OR " + predicate(s) + ")");
    }
    Collections.shuffle(conj, r);
    return conj.isEmpty() ? "" : " WHERE " + String.join(" AND ", conj);
  }

  private String keyValue() {
    double x = r.nextDouble();
    if (x < 0.3) {
      return Long.toString(any(data.heavyUsers));
    }
    if (x < 0.35) {
      return Long.toString(data.missingUser);
    }
    return Long.toString(any(users));
  }

  private String keyList() {
    int n = 2 + r.nextInt(5);
    Set<String> keys = new LinkedHashSet<>();
    for (int i = 0; i < n; i++) {
      keys.add(keyValue());
    }
    return String.join(", ", keys);
  }

  private String predicate(Source s) {
    if (s.key() != null && chance(0.05)) {
      return subqueryPredicate(s);
    }
    List<Col> candidates = new ArrayList<>();
    for (Col col : s.cols()) {
      if (col.kind() != Kind.KEY) {
        candidates.add(col);
      }
    }
    Col col = any(candidates);
    String e = col.expr();
    if (col.nullable() && chance(0.2)) {
      return e + (chance(0.5) ? " IS NULL" : " IS NOT NULL");
    }
    switch (col.kind()) {
      case ID: {
        long v = col.name().equals("comment_id") ? 1 + r.nextInt(Math.max(1, data.comments.size()))
            : any(posts);
        double x = r.nextDouble();
        if (x < 0.4) {
          return e + (chance(0.5) ? " > " : " <= ") + v;
        }
        if (x < 0.7) {
          return e + " BETWEEN " + v + " AND " + (v + 200 + r.nextInt(800));
        }
        return e + " IN (" + v + ", " + (v + 1) + ", " + (v + 2) + ", " + (v + 17) + ")";
      }
      case INT: {
        List<Integer> pool = switch (col.name()) {
          case "likes" -> List.of(-5, 0, 1, 3, 10, 50, 100, 200);
          case "stars" -> List.of(1, 2, 3, 4, 5);
          default -> List.of(-20, -1, 0, 10, 25);
        };
        int v = any(pool);
        double x = r.nextDouble();
        if (x < 0.45) {
          return e + " " + any(List.of(">", ">=", "<", "<=")) + " " + v;
        }
        if (x < 0.6) {
          return e + " = " + v;
        }
        if (x < 0.7) {
          return e + " <> " + v;
        }
        if (x < 0.85) {
          return e + " BETWEEN " + v + " AND " + (v + any(List.of(2, 10, 60)));
        }
        return e + " IN (" + v + ", " + any(pool) + ", " + any(pool) + ")";
      }
      case DECIMAL: {
        String v = any(col.name().equals("rating") ? List.of("-0.50", "0", "2.5", "5.00", "7.25")
            : List.of("-100.00", "0", "25.00", "500.5", "2500"));
        return chance(0.7) ? e + " " + any(List.of(">", "<=", ">=")) + " " + v : e + " = " + v;
      }
      case STRING: {
        double x = r.nextDouble();
        List<String> pool = switch (col.name()) {
          case "category" -> DifferentialData.CATEGORIES;
          case "name" -> s.label().contains("countries") && e.startsWith("co.") || s.label().equals("countries")
              ? List.of("Belgium", "japan", "NORWAY", "Éspaña") : DifferentialData.NAMES;
          case "country_code", "code" -> List.of("BE", "de", "US", "jp", "XX", "NO");
          case "region" -> List.of("Europe", "EUROPE", "asia", "Americas", "Africa");
          default -> DifferentialData.WORDS;
        };
        String v = any(pool);
        v = chance(0.3) ? v.toUpperCase(Locale.ROOT) : chance(0.3) ? v.toLowerCase(Locale.ROOT) : v;
        if (col.name().equals("title") || col.name().equals("body")) {
          // Free text: whole-value equality would nearly always match nothing.
          String word = any(DifferentialData.WORDS);
          return x < 0.4 ? e + " LIKE " + DifferentialData.lit(word + "%")
              : x < 0.7 ? e + " LIKE " + DifferentialData.lit("%" + word.substring(0, 3) + "%")
              : x < 0.85 ? e + " NOT LIKE " + DifferentialData.lit(any(List.of("a%", "%o%", "E%", "_e%")))
              : e + " " + any(List.of("<", ">=")) + " " + DifferentialData.lit(any(List.of("m", "N", "d", "Z")));
        }
        if (x < 0.35) {
          return e + " = " + DifferentialData.lit(v);
        }
        if (x < 0.6) {
          return e + " LIKE " + DifferentialData.lit(any(List.of("a%", "%o%", "E%", "_e%", "ch%", "%a", "m%", "N%")));
        }
        if (x < 0.75) {
          return e + " IN (" + DifferentialData.lit(v) + ", " + DifferentialData.lit(any(pool)) + ")";
        }
        if (x < 0.85) {
          return e + " <> " + DifferentialData.lit(v);
        }
        return e + " " + any(List.of("<", ">=")) + " " + DifferentialData.lit(any(List.of("m", "N", "d", "Z")));
      }
      case DATE: {
        String v = "2020-01-01";
        v = java.time.LocalDate.parse(v).plusDays(r.nextInt(1500)).toString();
        return chance(0.7) ? e + " " + any(List.of(">=", "<")) + " '" + v + "'"
            : e + " BETWEEN '" + v + "' AND '" + java.time.LocalDate.parse(v).plusDays(200) + "'";
      }
      case DATETIME: {
        java.time.LocalDateTime v = java.time.LocalDateTime.of(2023, 1, 1, 0, 0).plusMinutes(15L * r.nextInt(40_000));
        String t = v.toString().replace('T', ' ');
        return chance(0.7) ? e + " " + any(List.of(">=", "<", ">")) + " '" + t + "'"
            : e + " BETWEEN '" + t + "' AND '" + v.plusDays(60).toString().replace('T', ' ') + "'";
      }
      default:
        throw new AssertionError(col);
    }
  }

  /**
   * A subquery on the key: a semi-join {@code key IN (SELECT user_id FROM users WHERE ..)}, or a
   * correlated EXISTS on (user_id, post_id) for sources with posts; both stay on the key's shard.
   */
  private String subqueryPredicate(Source s) {
    String key = s.key().expr();
    String qualifier = key.contains(".") ? key.substring(0, key.indexOf('.')) : s.from().split(" ")[0];
    boolean hasPost = false;
    for (Col col : s.cols()) {
      hasPost |= col.expr().equals((key.contains(".") ? qualifier + "." : "") + "post_id");
    }
    if (hasPost && chance(0.5)) {
      return (chance(0.3) ? "NOT " : "") + "EXISTS (SELECT 1 FROM comments c2 WHERE c2.user_id = " + qualifier
          + ".user_id AND c2.post_id = " + qualifier + ".post_id AND c2.stars >= " + (2 + r.nextInt(4)) + ")";
    }
    return key + " IN (SELECT user_id FROM users WHERE " + any(List.of("score > 10", "country_code = 'US'",
        "name LIKE 'a%'", "balance IS NULL", "created < '2021-06-01'")) + ")";
  }

  // ---------------------------------------------------------------- plain and DISTINCT selects

  private Draft plain(Source s, boolean distinct) {
    Draft d = new Draft();
    List<Out> outs = new ArrayList<>();
    boolean star = !distinct && s.single() && chance(0.12);
    if (star) {
      for (Col col : s.cols()) {
        outs.add(new Out(col.expr(), null, col.expr(), col.kind(), false, false));
      }
    } else {
      List<Col> cols = new ArrayList<>(s.cols());
      Collections.shuffle(cols, r);
      int n = distinct ? 1 + r.nextInt(2) : 1 + r.nextInt(4);
      if (distinct) {
        cols.removeIf(col -> s.unique().contains(col) && chance(0.85)); // de-duplicating unique rows is dull
      }
      for (Col col : cols.subList(0, Math.min(n, cols.size()))) {
        String alias = chance(0.2) ? alias() : null;
        outs.add(new Out(col.expr(), alias, col.expr(), col.kind(), false, distinct && col.kind() == Kind.STRING));
      }
      if (chance(0.15)) {
        outs.add(expression(s, distinct));
      }
    }
    String where = where(s, d);

    List<Key> keys = new ArrayList<>();
    boolean determined = false;
    if (chance(distinct ? 0.6 : 0.6)) {
      int n = 1 + (chance(0.35) ? 1 : 0);
      Set<String> used = new LinkedHashSet<>();
      for (int i = 0; i < n; i++) {
        if (distinct || chance(0.5)) {
          int idx = r.nextInt(outs.size());
          if (used.add(outs.get(idx).expr())) {
            keys.add(new Key(outRef(outs, idx, star), idx));
          }
        } else {
          Col col = any(s.cols());
          if (used.add(col.expr())) {
            keys.add(new Key(vary(col.expr()) + dir(), indexOf(outs, col.expr())));
          }
        }
      }
      if (!distinct && chance(0.08)) {
        Col num = numericCol(s);
        if (num != null && used.add("COALESCE(" + num.expr() + ", 0)")) {
          keys.add(0, new Key("COALESCE(" + num.expr() + ", 0)" + dir(), -1));
        }
      }
      if (distinct) {
        Set<Integer> covered = new TreeSet<>();
        for (Key k : keys) {
          covered.add(k.out());
        }
        if (covered.size() < outs.size() && chance(0.6)) {
          for (int i = 0; i < outs.size(); i++) {
            if (!covered.contains(i)) {
              keys.add(new Key(outRef(outs, i, star), i));
              covered.add(i);
            }
          }
        }
        determined = covered.size() == outs.size();
      } else if (chance(0.78)) {
        for (Col u : s.unique()) {
          if (used.add(u.expr())) {
            int idx = indexOf(outs, u.expr());
            keys.add(new Key(idx >= 0 && chance(0.3) ? outRef(outs, idx, star) : vary(u.expr()) + dir(), idx));
          }
        }
        determined = true;
      } else {
        Set<String> uniq = new TreeSet<>();
        for (Col u : s.unique()) {
          uniq.add(u.expr());
        }
        determined = used.containsAll(uniq);
      }
    }
    StringBuilder sql = new StringBuilder("SELECT ").append(distinct ? "DISTINCT " : "");
    sql.append(star ? "*" : selectList(outs)).append(" FROM ").append(s.from()).append(where);
    appendOrder(sql, keys);
    if (determined && chance(0.45)) {
      sql.append(limit());
    }
    d.sql = sql.toString();
    setOrder(d, keys, determined);
    for (int i = 0; i < outs.size(); i++) {
      if (outs.get(i).fold()) {
        d.folded.add(i);
      }
    }
    return d;
  }

  /** A computed, non-aggregate column. */
  private Out expression(Source s, boolean distinct) {
    Col num = numericCol(s);
    List<Col> strings = new ArrayList<>();
    List<Col> dates = new ArrayList<>();
    for (Col col : s.cols()) {
      if (col.kind() == Kind.STRING) {
        strings.add(col);
      } else if (col.kind() == Kind.DATE || col.kind() == Kind.DATETIME) {
        dates.add(col);
      }
    }
    double x = r.nextDouble();
    if (x < 0.35 && num != null) {
      return chance(0.5) ? new Out("COALESCE(" + num.expr() + ", -1)", alias(), null, num.kind(), false, false)
          : new Out(num.expr() + " * 2", null, null, num.kind(), false, false);
    }
    if (x < 0.65 && !dates.isEmpty()) {
      Col date = any(dates);
      return new Out("YEAR(" + date.expr() + ")", alias(), null, Kind.INT, false, false);
    }
    Col str = any(strings);
    // Under DISTINCT, UPPER('Émile') and UPPER('emile') are one value; which one is kept is not determined.
    return new Out("UPPER(" + str.expr() + ")", chance(0.5) ? alias() : null, null, Kind.STRING, false, distinct);
  }

  private Col numericCol(Source s) {
    List<Col> nums = new ArrayList<>();
    for (Col col : s.cols()) {
      if (col.kind() == Kind.INT || col.kind() == Kind.DECIMAL) {
        nums.add(col);
      }
    }
    return nums.isEmpty() ? null : any(nums);
  }

  private static int indexOf(List<Out> outs, String expr) {
    for (int i = 0; i < outs.size(); i++) {
      if (expr.equals(outs.get(i).expr())) {
        return i;
      }
    }
    return -1;
  }

  /** An ORDER BY reference to result column {@code idx}: its expression, alias or position. */
  private String outRef(List<Out> outs, int idx, boolean star) {
    Out o = outs.get(idx);
    double x = r.nextDouble();
    String ref;
    if (o.alias() != null && x < 0.5) {
      ref = o.alias();
    } else if (x < 0.75 || o.aggregate() && chance(0.3)) {
      ref = Integer.toString(idx + 1);
    } else {
      ref = vary(o.text());
    }
    return ref + dir();
  }

  /** A plain column reference, sometimes with its column name in upper case (names are case-insensitive). */
  private String vary(String expr) {
    if (!expr.matches("[a-z_]+(\\.[a-z_]+)?") || !chance(0.12)) {
      return expr;
    }
    int dot = expr.indexOf('.');
    return expr.substring(0, dot + 1) + expr.substring(dot + 1).toUpperCase(Locale.ROOT);
  }

  private static String selectList(List<Out> outs) {
    List<String> items = new ArrayList<>();
    for (Out o : outs) {
      items.add(o.alias() == null ? o.text() : o.text() + " AS " + o.alias());
    }
    return String.join(", ", items);
  }

  private static void appendOrder(StringBuilder sql, List<Key> keys) {
    if (!keys.isEmpty()) {
      List<String> texts = new ArrayList<>();
      for (Key k : keys) {
        texts.add(k.text());
      }
      sql.append(" ORDER BY ").append(String.join(", ", texts));
    }
  }

  private String limit() {
    int n = any(List.of(1, 2, 3, 5, 10, 20, 50));
    if (chance(0.5)) {
      return " LIMIT " + n;
    }
    int m = any(List.of(0, 1, 3, 10, 25, 100, 5000));
    return chance(0.6) ? " LIMIT " + n + " OFFSET " + m : " LIMIT " + m + ", " + n;
  }

  private static void setOrder(Draft d, List<Key> keys, boolean determined) {
    if (keys.isEmpty()) {
      d.order = Order.NONE;
    } else if (determined) {
      d.order = Order.TOTAL;
    } else {
      List<Integer> idx = new ArrayList<>();
      for (Key k : keys) {
        if (k.out() < 0) {
          d.order = Order.NONE;
          return;
        }
        idx.add(k.out());
      }
      d.order = Order.SEGMENTED;
      d.orderKeys = idx;
    }
  }

  // ---------------------------------------------------------------- aggregates

  /** An aggregate over the source: its text and the kind of value it yields. */
  private Out aggregate(Source s, boolean allowAlias) {
    String count = chance(0.25) ? "count" : "COUNT";
    double x = r.nextDouble();
    String text;
    Kind kind = Kind.INT;
    boolean fold = false;
    if (x < 0.2) {
      text = count + "(*)";
    } else if (x < 0.32) {
      Col col = any(nullableOr(s));
      text = count + "(" + col.expr() + ")";
    } else if (x < 0.44) {
      Col col = distinctable(s);
      text = count + "(DISTINCT " + col.expr() + ")";
    } else if (x < 0.85) {
      Col num = numericCol(s);
      String fn = any(List.of("SUM", "AVG", "MIN", "MAX", "sum", "avg"));
      if (num == null || chance(0.25) && (fn.equalsIgnoreCase("MIN") || fn.equalsIgnoreCase("MAX"))) {
        Col any = any(s.cols());
        fn = chance(0.5) ? "MIN" : "MAX";
        text = fn + "(" + any.expr() + ")";
        kind = any.kind();
        fold = any.kind() == Kind.STRING;
      } else {
        text = fn + "(" + (chance(0.06) ? "COALESCE(" + num.expr() + ", 0)" : num.expr()) + ")";
        kind = fn.equalsIgnoreCase("AVG") || num.kind() == Kind.DECIMAL ? Kind.DECIMAL : Kind.INT;
      }
    } else if (x < 0.88) {
      Col num = numericCol(s);
      text = num == null ? "COUNT(*)" : (chance(0.6) ? "SUM(DISTINCT " : "AVG(DISTINCT ") + num.expr() + ")";
    } else if (x < 0.9) {
      // Expressions over aggregates.
      Col num = numericCol(s);
      if (num == null) {
        text = "COUNT(*) + 1";
      } else {
        double y = r.nextDouble();
        text = y < 0.35 ? "MAX(" + num.expr() + ") - MIN(" + num.expr() + ")"
            : y < 0.7 ? "SUM(" + num.expr() + ") / COUNT(*)" : "ROUND(AVG(" + num.expr() + "), 1)";
      }
    } else {
      Col any = any(s.cols());
      text = (chance(0.5) ? "MIN(" : "MAX(") + any.expr() + ")";
      kind = any.kind();
      fold = any.kind() == Kind.STRING;
    }
    return new Out(text, allowAlias && chance(0.35) ? alias() : null, text, kind, true, fold);
  }

  private static List<Col> nullableOr(Source s) {
    List<Col> out = new ArrayList<>();
    for (Col col : s.cols()) {
      if (col.nullable()) {
        out.add(col);
      }
    }
    return out.isEmpty() ? s.cols() : out;
  }

  private Col distinctable(Source s) {
    List<Col> out = new ArrayList<>();
    for (Col col : s.cols()) {
      if (col.kind() == Kind.STRING || col.kind() == Kind.INT || col.kind() == Kind.KEY || col.kind() == Kind.DATE) {
        out.add(col);
      }
    }
    return any(out);
  }

  private Draft aggregates(Source s) {
    Draft d = new Draft();
    List<Out> outs = new ArrayList<>();
    int n = 1 + r.nextInt(4);
    Set<String> texts = new LinkedHashSet<>();
    for (int i = 0; i < n; i++) {
      Out o = aggregate(s, true);
      if (texts.add(o.text())) {
        outs.add(o);
      }
    }
    String sql = "SELECT " + selectList(outs) + " FROM " + s.from() + where(s, d);
    if (chance(0.08)) {
      sql += " HAVING " + having(s, outs);
    }
    d.sql = sql;
    for (int i = 0; i < outs.size(); i++) {
      d.aggregates.add(i);
      if (outs.get(i).fold()) {
        d.folded.add(i);
      }
    }
    d.order = Order.NONE; // at most one row
    return d;
  }

  private String having(Source s, List<Out> outs) {
    double x = r.nextDouble();
    List<Out> aliased = new ArrayList<>();
    for (Out o : outs) {
      if (o.aggregate() && o.alias() != null && o.kind() != Kind.STRING && o.kind() != Kind.DATE
          && o.kind() != Kind.DATETIME) {
        aliased.add(o);
      }
    }
    if (x < 0.2 && !aliased.isEmpty()) {
      return any(aliased).alias() + " " + any(List.of(">", ">=", "<")) + " " + any(List.of(0, 1, 2, 10, 50));
    }
    Col num = numericCol(s);
    if (x < 0.5 || num == null) {
      return "COUNT(*) " + any(List.of(">", ">=", "<", "=")) + " " + any(List.of(1, 2, 3, 5, 10, 40));
    }
    if (x < 0.7) {
      return "SUM(" + num.expr() + ") >= " + any(List.of(0, 10, 100, 500));
    }
    if (x < 0.8) {
      return "AVG(" + num.expr() + ") > " + any(List.of(0, 5, 20, 60));
    }
    if (x < 0.9) {
      return (chance(0.5) ? "MIN(" : "MAX(") + num.expr() + ") " + any(List.of("<", ">")) + " " + any(List.of(0, 3, 50));
    }
    return "COUNT(DISTINCT " + distinctable(s).expr() + ") >= 2";
  }

  // ---------------------------------------------------------------- GROUP BY

  private Draft grouped(Source s) {
    Draft d = new Draft();
    List<Col> groupCols = new ArrayList<>(s.groupable());
    Collections.shuffle(groupCols, r);
    int ng = chance(0.3) ? 2 : 1;
    List<Out> groups = new ArrayList<>();
    for (Col col : groupCols.subList(0, Math.min(ng, groupCols.size()))) {
      groups.add(new Out(col.expr(), chance(0.15) ? alias() : null, col.expr(), col.kind(), false,
          col.kind() == Kind.STRING));
    }
    if (chance(0.1)) {
      for (Col col : s.cols()) {
        if (col.kind() == Kind.DATE || col.kind() == Kind.DATETIME) {
          groups.set(0, new Out("YEAR(" + col.expr() + ")", alias(), "YEAR(" + col.expr() + ")", Kind.INT, false, false));
          break;
        }
      }
    }
    List<Out> outs = new ArrayList<>();
    boolean hideOne = chance(0.08);
    List<Out> shown = new ArrayList<>(groups);
    if (hideOne) {
      shown.remove(shown.size() - 1);
    }
    outs.addAll(shown);
    int na = 1 + r.nextInt(3);
    Set<String> texts = new LinkedHashSet<>();
    for (int i = 0; i < na; i++) {
      Out o = aggregate(s, true);
      if (texts.add(o.text())) {
        outs.add(o);
      }
    }
    if (chance(0.3)) {
      Collections.shuffle(outs, r); // aggregates before group columns, too
    }
    String where = where(s, d);
    List<String> groupBy = new ArrayList<>();
    for (Out g : groups) {
      // GROUP BY the alias sometimes (MySQL allows it), else the expression.
      double how = r.nextDouble();
      if (outs.contains(g) && how < 0.15) {
        groupBy.add(Integer.toString(outs.indexOf(g) + 1)); // GROUP BY position
      } else if (g.alias() != null && outs.contains(g) && how < 0.6) {
        groupBy.add(g.alias());
      } else {
        groupBy.add(vary(g.expr()));
      }
    }
    StringBuilder sql = new StringBuilder("SELECT ").append(selectList(outs)).append(" FROM ").append(s.from())
        .append(where).append(" GROUP BY ").append(String.join(", ", groupBy));
    if (chance(0.35)) {
      sql.append(" HAVING ").append(having(s, outs));
      if (chance(0.15)) {
        sql.append(" AND ").append(having(s, outs));
      }
    }
    List<Key> keys = new ArrayList<>();
    boolean determined = false;
    double o = r.nextDouble();
    if (o < 0.6) {
      List<Out> aggs = new ArrayList<>();
      for (Out out : outs) {
        if (out.aggregate()) {
          aggs.add(out);
        }
      }
      double pattern = r.nextDouble();
      if (pattern < 0.3 && !aggs.isEmpty()) {
        Out a = any(aggs);
        keys.add(new Key(outRef(outs, outs.indexOf(a), false), outs.indexOf(a)));
      } else if (pattern < 0.4) {
        Out a = aggregate(s, false); // an aggregate that is not selected
        keys.add(new Key(a.text() + dir(), indexOf(outs, a.text())));
      }
      List<Out> order = new ArrayList<>(groups);
      Collections.shuffle(order, r);
      boolean partial = order.size() > 1 && chance(0.15) || keys.size() == 1 && chance(0.3);
      if (partial) {
        order = order.subList(0, order.size() - 1);
      }
      for (Out g : order) {
        int idx = outs.indexOf(g);
        keys.add(new Key(idx >= 0 ? outRef(outs, idx, false) : vary(g.expr()) + dir(), idx));
      }
      determined = !partial;
    }
    appendOrder(sql, keys);
    if (determined && chance(0.4)) {
      sql.append(limit());
    }
    d.sql = sql.toString();
    setOrder(d, keys, determined);
    for (int i = 0; i < outs.size(); i++) {
      if (outs.get(i).aggregate()) {
        d.aggregates.add(i);
      }
      if (outs.get(i).fold()) {
        d.folded.add(i);
      }
    }
    return d;
  }
}
