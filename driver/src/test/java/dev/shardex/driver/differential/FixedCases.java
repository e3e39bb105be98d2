package dev.shardex.driver.differential;

import dev.shardex.driver.differential.GeneratedQuery.Order;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The differential test's hand-written edge cases: the shapes that once merged wrongly and their
 * neighbours (aggregates over nothing, HAVING without GROUP BY, collation order, NULL ordering,
 * LIMIT / OFFSET edges, joins, UNION / INTERSECT / EXCEPT, window functions), each of which must
 * give the oracle's answer or a named refusal. {@link QueryGenerator} puts them before its
 * generated queries.
 */
final class FixedCases {
  private final DifferentialData data;
  private final List<GeneratedQuery> fixed = new ArrayList<>();

  FixedCases(DifferentialData data) {
    this.data = data;
  }

  private void fx(String sql, Order order, List<Integer> orderKeys, Set<Integer> aggregates, Set<Integer> folded,
      String route) {
    fixed.add(new GeneratedQuery(sql, order, orderKeys, aggregates, folded, route, "fixed #" + (fixed.size() + 1)));
  }

  /**
   * The shapes that once merged wrongly (issue 11) and their neighbours: each must give the
   * oracle's answer or a named refusal.
   */
  private void issue11(Order t, Order none, String nk) {
    int users = data.users.size();
    // HAVING without GROUP BY: the whole table is one group, tested on the merged count.
    for (String op : List.of("=", "!=", "<>", "<", "<=", ">", ">=")) {
      fx("SELECT 1 FROM users HAVING COUNT(*) " + op + " " + users, none, List.of(), Set.of(), Set.of(), nk);
    }
    fx("SELECT COUNT(*) AS a FROM users HAVING a = " + users, none, List.of(), Set.of(0), Set.of(), nk);
    fx("SELECT 1 AS one FROM posts HAVING SUM(likes) > 10 AND MIN(likes) >= 0", none, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT MAX(score) FROM users HAVING COUNT(*) BETWEEN 2 AND " + users, none, List.of(), Set.of(0), Set.of(), nk);
    fx("SELECT 1 FROM users WHERE user_id = " + data.heavyUsers.get(0) + " HAVING COUNT(*) = 1", none, List.of(), Set.of(),
        Set.of(), "key=");
    // HAVING whose condition is a bare aggregate (true unless 0 or NULL), or one not selected.
    fx("SELECT category, COUNT(*) FROM posts GROUP BY category HAVING SUM(likes) ORDER BY category", t, List.of(),
        Set.of(1), Set.of(0), nk);
    fx("SELECT category FROM posts GROUP BY category HAVING MIN(likes) ORDER BY category", t, List.of(), Set.of(),
        Set.of(0), nk);
    fx("SELECT country_code FROM users GROUP BY country_code HAVING NOT COUNT(score) ORDER BY country_code", t, List.of(),
        Set.of(), Set.of(0), nk);
    fx("SELECT user_id FROM comments GROUP BY user_id HAVING COUNT(*) > 20 OR MAX(stars) ORDER BY user_id", t, List.of(),
        Set.of(), Set.of(), nk);
    // Derived tables: exact when they only filter rows, refused when they aggregate or limit.
    fx("SELECT * FROM (SELECT user_id FROM users HAVING COUNT(*) >= 1) s", none, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT * FROM (SELECT user_id, COUNT(*) AS n FROM posts GROUP BY user_id) s ORDER BY user_id", t, List.of(),
        Set.of(), Set.of(), nk);
    // ... exact (each group on one shard) when they group by the shard key
    fx("SELECT COUNT(*), SUM(n), MAX(n) FROM (SELECT user_id, COUNT(*) AS n FROM comments GROUP BY user_id"
        + " HAVING COUNT(*) > 3) s", none, List.of(), Set.of(0, 1, 2), Set.of(), nk);
    fx("SELECT s.n, COUNT(*) FROM (SELECT user_id, COUNT(*) AS n FROM posts GROUP BY user_id) s GROUP BY s.n ORDER BY s.n",
        t, List.of(), Set.of(1), Set.of(), nk);
    fx("SELECT * FROM (SELECT p.user_id, COUNT(*) AS n FROM posts p JOIN comments c ON c.user_id = p.user_id"
        + " AND c.post_id = p.post_id GROUP BY p.user_id) s ORDER BY n DESC, user_id LIMIT 10", t, List.of(), Set.of(),
        Set.of(), nk);
    fx("SELECT * FROM (SELECT category, COUNT(*) AS n FROM posts GROUP BY category) s ORDER BY category", t, List.of(),
        Set.of(), Set.of(0), nk);
    fx("SELECT * FROM (SELECT user_id, COUNT(*) AS n FROM posts GROUP BY user_id ORDER BY n DESC LIMIT 3) s", none,
        List.of(), Set.of(), Set.of(), nk);
    fx("SELECT s.user_id, s.name FROM (SELECT user_id, name FROM users WHERE score > 10) s ORDER BY s.user_id", t,
        List.of(), Set.of(), Set.of(), nk);
    fx("SELECT s.code FROM (SELECT code FROM countries WHERE region IS NOT NULL) s ORDER BY s.code", t, List.of(),
        Set.of(), Set.of(), "global only");
    // ROLLUP: refused across shards (its subtotal rows would fold across levels).
    fx("SELECT category, COUNT(*) FROM posts GROUP BY category WITH ROLLUP", none, List.of(), Set.of(1), Set.of(0), nk);
    fx("SELECT region, COUNT(*) FROM countries GROUP BY region WITH ROLLUP", none, List.of(), Set.of(1), Set.of(0),
        "global only");
    // GLOBAL reads with SHARDED subqueries, and the other mixes.
    fx("SELECT code, (SELECT name FROM users ORDER BY user_id LIMIT 1) AS e FROM countries", none, List.of(), Set.of(),
        Set.of(), nk);
    fx("SELECT (SELECT COUNT(*) FROM posts) AS n", none, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT user_id FROM users UNION ALL SELECT (SELECT COUNT(*) FROM posts) FROM countries", none, List.of(), Set.of(),
        Set.of(), nk);
    fx("SELECT co.code, (SELECT COUNT(*) FROM users u WHERE u.country_code = co.code) AS n FROM countries co"
        + " ORDER BY co.code", t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT code FROM countries WHERE code IN (SELECT country_code FROM users) ORDER BY code", t, List.of(), Set.of(),
        Set.of(), nk);
    fx("SELECT code FROM countries co WHERE EXISTS (SELECT 1 FROM users u WHERE u.country_code = co.code) ORDER BY code",
        t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT code, (SELECT name FROM users WHERE user_id = " + data.heavyUsers.get(0) + ") AS e FROM countries"
        + " ORDER BY code", t, List.of(), Set.of(), Set.of(), "key=");
    fx("SELECT u.user_id, (SELECT COUNT(*) FROM posts p WHERE p.user_id = u.user_id) AS n FROM users u ORDER BY u.user_id",
        t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT u.user_id, (SELECT co.name FROM countries co WHERE co.code = u.country_code) AS c FROM users u"
        + " ORDER BY u.user_id", t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT user_id FROM users WHERE country_code IN (SELECT code FROM countries WHERE region = 'Europe')"
        + " ORDER BY user_id", t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT user_id FROM users WHERE score > (SELECT AVG(score) FROM users) ORDER BY user_id", t, List.of(), Set.of(),
        Set.of(), nk);
    // The SINGLE table notes (home shard) with SHARDED and GLOBAL ones, in subqueries either way.
    String single = "single";
    fx("SELECT n.note_id, (SELECT COUNT(*) FROM posts p WHERE p.user_id = n.user_id) AS c FROM notes n ORDER BY n.note_id",
        t, List.of(), Set.of(), Set.of(), single);
    fx("SELECT note_id, (SELECT name FROM countries WHERE code = 'NL') AS c FROM notes ORDER BY note_id", t, List.of(),
        Set.of(), Set.of(), single);
    fx("SELECT * FROM (SELECT user_id, COUNT(*) AS n FROM notes GROUP BY user_id) s ORDER BY user_id", t, List.of(),
        Set.of(), Set.of(), single);
    fx("SELECT u.user_id, (SELECT COUNT(*) FROM notes n WHERE n.user_id = u.user_id) AS c FROM users u ORDER BY u.user_id",
        t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT user_id FROM users WHERE user_id IN (SELECT user_id FROM notes) ORDER BY user_id", t, List.of(), Set.of(),
        Set.of(), nk);
    fx("SELECT body FROM notes WHERE user_id = (SELECT MAX(user_id) FROM users)", none, List.of(), Set.of(), Set.of(),
        single);
    fx("SELECT 1 FROM notes HAVING COUNT(*) > 1", none, List.of(), Set.of(), Set.of(), single);
    fx("SELECT code, (SELECT COUNT(*) FROM notes) AS n FROM countries ORDER BY code", t, List.of(), Set.of(), Set.of(),
        single);
    fx("SELECT body, COUNT(*) FROM notes GROUP BY body WITH ROLLUP", none, List.of(), Set.of(1), Set.of(0), single);
    // ... whose subqueries run first: a SINGLE table's outer statement with SHARDED subqueries, and the other way round
    fx("SELECT note_id, body FROM notes WHERE user_id IN (SELECT user_id FROM users WHERE score > 0 OR score IS NULL)"
        + " ORDER BY note_id", t, List.of(), Set.of(), Set.of(), single);
    fx("SELECT note_id FROM notes WHERE user_id NOT IN (SELECT user_id FROM posts WHERE likes > 5) ORDER BY note_id", t,
        List.of(), Set.of(), Set.of(), single);
    fx("SELECT note_id, (SELECT MAX(score) FROM users) AS top FROM notes WHERE user_id <> (SELECT MIN(user_id) FROM posts)"
        + " ORDER BY note_id", t, List.of(), Set.of(), Set.of(), single);
    fx("SELECT u.user_id, u.name FROM users u WHERE EXISTS (SELECT 1 FROM notes n WHERE n.user_id = u.user_id)"
        + " ORDER BY u.user_id", t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT user_id, score FROM users WHERE user_id NOT IN (SELECT user_id FROM notes) AND score > 45 ORDER BY user_id",
        t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT country_code, COUNT(*) FROM users WHERE user_id IN (SELECT user_id FROM notes WHERE body <> 'note 1')"
        + " GROUP BY country_code ORDER BY country_code", t, List.of(), Set.of(1), Set.of(), nk);
    // a join given to one server, grouped by a select alias (no table column of that name) and by position
    fx("SELECT c.stars AS s, COUNT(*), SUM(p.likes) FROM comments c LEFT JOIN posts p ON p.post_id = c.post_id"
        + " WHERE (p.title LIKE 'a%' OR c.comment_id < 300) GROUP BY s ORDER BY s", t, List.of(), Set.of(1, 2), Set.of(), nk);
    fx("SELECT c.user_id AS who, c.stars, COUNT(DISTINCT p.category) FROM comments c JOIN posts p ON p.post_id = c.post_id"
        + " WHERE (p.likes > 20 OR c.stars = 5) GROUP BY who, 2 ORDER BY 1, 2", t, List.of(), Set.of(2), Set.of(), nk);
    // ... and joined with them (the SINGLE table's rows drive a lookup join, or both sides go to one server)
    fx("SELECT n.note_id, u.name, u.score FROM notes n JOIN users u ON u.user_id = n.user_id ORDER BY n.note_id", t,
        List.of(), Set.of(), Set.of(), nk);
    fx("SELECT u.user_id, n.body FROM users u LEFT JOIN notes n ON n.user_id = u.user_id WHERE u.score > 40"
        + " ORDER BY u.user_id, n.body", t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT n.body, COUNT(*), SUM(p.likes) FROM notes n JOIN posts p ON p.user_id = n.user_id GROUP BY n.body"
        + " ORDER BY n.body", t, List.of(), Set.of(1, 2), Set.of(), nk);
    fx("SELECT n.note_id, c.name FROM notes n JOIN users u ON u.user_id = n.user_id JOIN countries c"
        + " ON c.code = u.country_code ORDER BY n.note_id", t, List.of(), Set.of(), Set.of(), nk);
    // Rewrites: the hidden sort column of a self-join, aliases that are also function names.
    fx("SELECT u1.* FROM users u1 JOIN users u2 ON u1.user_id = u2.user_id ORDER BY user_id", t, List.of(), Set.of(),
        Set.of(), nk);
    fx("SELECT p1.* FROM posts p1 JOIN posts p2 ON p1.user_id = p2.user_id AND p1.post_id = p2.post_id"
        + " ORDER BY post_id LIMIT 30", t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT u1.country_code, COUNT(*) FROM users u1 JOIN users u2 ON u1.user_id = u2.user_id"
        + " GROUP BY u1.country_code ORDER BY country_code", t, List.of(), Set.of(1), Set.of(0), nk);
    fx("SELECT p1.title, p1.post_id FROM posts p1 JOIN posts p2 ON p1.user_id = p2.user_id AND p1.post_id = p2.post_id"
        + " ORDER BY post_id DESC LIMIT 20", t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT YEAR(created) AS year, COUNT(*) FROM users GROUP BY year HAVING COUNT(*) > 2 ORDER BY year", t, List.of(),
        Set.of(1), Set.of(), nk);
    fx("SELECT MONTH(created) AS month, COUNT(*) AS n FROM posts GROUP BY month ORDER BY month", t, List.of(), Set.of(1),
        Set.of(), nk);
    fx("SELECT YEAR(created) AS year, MAX(likes) FROM posts GROUP BY year HAVING year > 2000 ORDER BY year DESC", t,
        List.of(), Set.of(1), Set.of(), nk);
    fx("SELECT DAY(created) AS day, COUNT(*) FROM users GROUP BY day ORDER BY COUNT(*) DESC, day LIMIT 5", t, List.of(),
        Set.of(1), Set.of(), nk);
  }

  List<GeneratedQuery> all() {
    fixed.clear();
    long h0 = data.heavyUsers.get(0);
    long h1 = data.heavyUsers.get(1);
    long h2 = data.heavyUsers.get(2);
    int halfComments = data.comments.size() / 2;
    Order t = Order.TOTAL;
    Order none = Order.NONE;
    String nk = "no key";
    // Aggregates over nothing: one row of 0 / NULLs, not one per shard, not none.
    fx("SELECT COUNT(*), SUM(likes), MIN(created), MAX(title), AVG(rating), COUNT(DISTINCT category) FROM posts"
        + " WHERE likes > 100000", none, List.of(), Set.of(0, 1, 2, 3, 4, 5), Set.of(3), nk);
    fx("SELECT COUNT(*) FROM posts", none, List.of(), Set.of(0), Set.of(), nk);
    fx("SELECT COUNT(*) AS n, COUNT(likes), COUNT(category), SUM(likes), MIN(likes), MAX(likes) FROM posts", none,
        List.of(), Set.of(0, 1, 2, 3, 4, 5), Set.of(), nk);
    fx("SELECT AVG(likes), AVG(rating), SUM(rating) FROM posts", none, List.of(), Set.of(0, 1, 2), Set.of(), nk);
    fx("SELECT AVG(balance), SUM(balance), MIN(balance), MAX(balance), AVG(score) FROM users", none, List.of(),
        Set.of(0, 1, 2, 3, 4), Set.of(), nk);
    fx("SELECT MIN(user_id), MAX(user_id), MIN(name), MAX(name), MIN(created), MAX(created) FROM users", none,
        List.of(), Set.of(0, 1, 2, 3, 4, 5), Set.of(2, 3), nk);
    fx("SELECT COUNT(DISTINCT category), COUNT(DISTINCT likes), SUM(DISTINCT likes), COUNT(DISTINCT user_id) FROM posts",
        none, List.of(), Set.of(0, 1, 2, 3), Set.of(), nk);
    fx("SELECT COUNT(DISTINCT name) FROM users", none, List.of(), Set.of(0), Set.of(), nk);
    // HAVING without GROUP BY, threshold between a shard's share and the total.
    fx("SELECT COUNT(*) FROM comments HAVING COUNT(*) > " + halfComments, none, List.of(), Set.of(0), Set.of(), nk);
    fx("SELECT category, COUNT(*) FROM posts WHERE likes > 100000 GROUP BY category", none, List.of(), Set.of(1),
        Set.of(0), nk);
    fx("SELECT category, AVG(likes), COUNT(*) FROM posts GROUP BY category", none, List.of(), Set.of(1, 2), Set.of(0), nk);
    fx("SELECT DISTINCT category FROM posts", none, List.of(), Set.of(), Set.of(0), nk);
    fx("SELECT DISTINCT name FROM users ORDER BY name", t, List.of(), Set.of(), Set.of(0), nk);
    fx("SELECT DISTINCT name FROM users ORDER BY name DESC LIMIT 3", t, List.of(), Set.of(), Set.of(0), nk);
    // Collation order: 'alpha' < 'Beta' < 'Émile' < 'oscar' < 'Zoe' under general_ci, not in Java.
    fx("SELECT name, user_id FROM users ORDER BY name, user_id", t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT title, post_id FROM posts ORDER BY title DESC, post_id LIMIT 40", t, List.of(), Set.of(), Set.of(), nk);
    // NULLs sort first ascending, last descending.
    fx("SELECT post_id, likes FROM posts ORDER BY likes, post_id LIMIT 25", t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT post_id, likes FROM posts ORDER BY likes DESC, post_id DESC LIMIT 25", t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT post_id FROM posts ORDER BY category DESC, likes, post_id LIMIT 40", t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT user_id, score FROM users ORDER BY score, balance DESC, user_id", t, List.of(), Set.of(), Set.of(), nk);
    // LIMIT / OFFSET edges.
    fx("SELECT post_id FROM posts ORDER BY post_id LIMIT 5 OFFSET 100000", t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT post_id FROM posts ORDER BY post_id LIMIT 0", t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT title FROM posts ORDER BY created DESC, post_id LIMIT 3, 7", t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT * FROM posts WHERE user_id IN (" + h0 + ", " + h1 + ", " + h2 + ") ORDER BY created, post_id LIMIT 20 OFFSET 30",
        t, List.of(), Set.of(), Set.of(), "key IN");
    fx("SELECT post_id, user_id FROM posts WHERE user_id IN (" + h0 + ", " + h1 + ") OR likes = 7 ORDER BY 1",
        t, List.of(), Set.of(), Set.of(), "key OR ...");
    // GROUP BY with ORDER BY / LIMIT on aggregates; the skewed users come first.
    fx("SELECT user_id, COUNT(*) AS n FROM posts GROUP BY user_id ORDER BY n DESC, user_id LIMIT 5", t, List.of(),
        Set.of(1), Set.of(), nk);
    fx("SELECT user_id, COUNT(*) FROM comments GROUP BY user_id HAVING COUNT(*) > 20 ORDER BY 2 DESC, 1", t, List.of(),
        Set.of(1), Set.of(), nk);
    fx("SELECT category, COUNT(*) AS n, SUM(likes) FROM posts GROUP BY category HAVING SUM(likes) >= 10 ORDER BY category",
        t, List.of(), Set.of(1, 2), Set.of(0), nk);
    fx("SELECT country_code, COUNT(*) FROM users GROUP BY country_code ORDER BY COUNT(*) DESC, country_code", t,
        List.of(), Set.of(1), Set.of(0), nk);
    fx("SELECT YEAR(created) AS y, COUNT(*), MAX(likes), AVG(rating) FROM posts GROUP BY y ORDER BY y DESC", t, List.of(),
        Set.of(1, 2, 3), Set.of(), nk);
    fx("SELECT category, MIN(title), MAX(created) FROM posts GROUP BY category ORDER BY category DESC", t, List.of(),
        Set.of(1, 2), Set.of(0, 1), nk);
    fx("SELECT COUNT(*) FROM posts GROUP BY category", none, List.of(), Set.of(0), Set.of(), nk);
    fx("SELECT likes, COUNT(*) FROM posts GROUP BY likes HAVING COUNT(*) >= 3 ORDER BY likes LIMIT 10 OFFSET 2", t,
        List.of(), Set.of(1), Set.of(), nk);
    // Joins.
    fx("SELECT u.name, co.name FROM users u JOIN countries co ON u.country_code = co.code ORDER BY u.user_id", t,
        List.of(), Set.of(), Set.of(), nk);
    fx("SELECT co.region, COUNT(*), AVG(u.balance) FROM users u LEFT JOIN countries co ON co.code = u.country_code"
        + " GROUP BY co.region ORDER BY co.region", t, List.of(), Set.of(1, 2), Set.of(0), nk);
    fx("SELECT p.post_id, COUNT(c.comment_id) AS n FROM posts p LEFT JOIN comments c ON p.user_id = c.user_id"
        + " AND p.post_id = c.post_id GROUP BY p.post_id ORDER BY n DESC, p.post_id LIMIT 10", t, List.of(), Set.of(1),
        Set.of(), nk);
    fx("SELECT p.category, AVG(c.stars), COUNT(*) FROM posts p JOIN comments c ON p.user_id = c.user_id"
        + " AND p.post_id = c.post_id GROUP BY p.category ORDER BY p.category", t, List.of(), Set.of(1, 2), Set.of(0), nk);
    fx("SELECT u.user_id, u.name, p.title FROM users u JOIN posts p ON p.user_id = u.user_id WHERE u.user_id = " + h0
        + " ORDER BY p.created DESC, p.post_id LIMIT 10", t, List.of(), Set.of(), Set.of(), "key=");
    fx("SELECT COUNT(*) FROM posts WHERE user_id = " + data.missingUser, none, List.of(), Set.of(0), Set.of(), "key=");
    fx("SELECT region, COUNT(*) FROM countries GROUP BY region ORDER BY region", t, List.of(), Set.of(1), Set.of(0),
        "global only");
    // The GLOBAL table on the preserved side of an outer join.
    fx("SELECT co.code, u.user_id FROM countries co LEFT JOIN users u ON u.country_code = co.code", none, List.of(),
        Set.of(), Set.of(), nk);
    fx("SELECT co.code, COUNT(u.user_id) FROM countries co LEFT JOIN users u ON u.country_code = co.code"
        + " GROUP BY co.code ORDER BY co.code", t, List.of(), Set.of(1), Set.of(0), nk);
    issue11(t, none, nk);
    // UNION across shards (research T16-T18): each branch a statement of its own, combined on one shard or concatenated.
    fx("SELECT user_id, name FROM users WHERE score > 50 UNION SELECT user_id, NULL FROM posts WHERE likes > 100", none,
        List.of(), Set.of(), Set.of(), "union");
    fx("(SELECT post_id, created FROM posts WHERE user_id = " + h0 + " ORDER BY created DESC, post_id LIMIT 10) UNION ALL"
        + " (SELECT post_id, created FROM posts WHERE likes > 100 ORDER BY created DESC, post_id LIMIT 10)"
        + " ORDER BY created DESC, post_id LIMIT 10", t, List.of(), Set.of(), Set.of(), "union");
    fx("SELECT code, name FROM countries UNION ALL SELECT country_code, name FROM users WHERE score > 90", none, List.of(),
        Set.of(), Set.of(), "union");
    fx("SELECT country_code FROM users UNION SELECT code FROM countries ORDER BY 1", t, List.of(), Set.of(), Set.of(), "union");
    setOperationsAndWindows(t, none, nk);
    return new ArrayList<>(fixed);
  }

  /**
   * INTERSECT / EXCEPT across shards (ALL keeps multiplicities, NULLs equal, INTERSECT before UNION)
   * and window functions: partitioned by the key (each shard computes them), or not (one shard over the rows).
   */
  private void setOperationsAndWindows(Order t, Order none, String nk) {
    fx("SELECT user_id FROM posts WHERE likes > 50 INTERSECT SELECT user_id FROM comments WHERE stars >= 4", none,
        List.of(), Set.of(), Set.of(), "union");
    fx("SELECT user_id, stars FROM comments INTERSECT ALL SELECT user_id, likes % 6 FROM posts", none, List.of(), Set.of(),
        Set.of(), "union");
    fx("SELECT likes FROM posts EXCEPT ALL SELECT stars FROM comments", none, List.of(), Set.of(), Set.of(), "union");
    fx("SELECT user_id FROM users EXCEPT SELECT user_id FROM posts ORDER BY 1 LIMIT 20", t, List.of(), Set.of(), Set.of(),
        "union");
    fx("SELECT user_id FROM users WHERE score > 80 UNION SELECT user_id FROM posts INTERSECT SELECT user_id FROM comments",
        none, List.of(), Set.of(), Set.of(), "union");
    fx("SELECT post_id, user_id, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY created, post_id) AS rn FROM posts"
        + " ORDER BY rn, post_id LIMIT 20", t, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT p.post_id, SUM(c.stars) OVER (PARTITION BY p.user_id ORDER BY c.comment_id) AS s FROM posts p"
        + " JOIN comments c ON c.user_id = p.user_id AND c.post_id = p.post_id", none, List.of(), Set.of(), Set.of(), nk);
    fx("SELECT likes, COUNT(*) OVER () AS n, RANK() OVER (ORDER BY likes, post_id) AS r FROM posts WHERE likes > 100",
        none, List.of(), Set.of(), Set.of(), nk);
  }
}
