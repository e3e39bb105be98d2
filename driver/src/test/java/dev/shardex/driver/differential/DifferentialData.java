package dev.shardex.driver.differential;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The differential test's data: generated once from a fixed seed, so every run (and the oracle
 * and the sharded cluster within a run) holds exactly the same rows, and loaded by the same SQL
 * texts into both.
 *
 * <p>Four tables: {@code users}, {@code posts} and {@code comments} SHARDED by {@code user_id}
 * ({@code comments.user_id} is the post's author, so a post and its comments share a shard) and
 * {@code countries} GLOBAL. The values are chosen to catch merge mistakes: NULLs in every
 * aggregated/ordered column, small value pools (many duplicates across users and shards), a few
 * users with a hundred-plus posts (skew), strings equal under utf8mb4_general_ci but not in Java
 * ('alpha' / 'Alpha' / 'ALPHA', 'Émile' / 'emile', and 'nina' / 'Nina ' under PAD SPACE), an apostrophe, negative numbers and keys,
 * DECIMALs, DATEs and DATETIMEs with ties.
 */
public final class DifferentialData {
  public static final long SEED = 20_240_917L;

  /** Name and country pools; general_ci folds case and accents, so several entries are "equal". */
  static final List<String> NAMES = List.of("alpha", "Alpha", "ALPHA", "beta", "Beta", "gamma", "Émile", "emile",
      "zoe", "Zoe", "oscar", "O'Brien", "yannick", "Ådne", "adne", "mike", "Mike", "nina", "Nina ");
  static final List<String> WORDS = List.of("apple", "Apple", "banana", "cherry", "Cherry", "delta", "echo", "Echo",
      "fox", "golf", "hotel", "india", "Juliet", "kilo", "lima", "mango", "Émoi", "zulu");
  /** Post categories; null is drawn separately. */
  static final List<String> CATEGORIES = List.of("news", "News", "tech", "Tech", "TECH", "sports", "art", "travel");
  /** Country codes users point at: most exist in countries, 'XX' does not, 'de' matches 'DE' under ci. */
  static final List<String> USER_COUNTRIES = List.of("BE", "NL", "DE", "de", "FR", "US", "US", "US", "JP", "BR", "XX", "NO");

  static final String[][] COUNTRIES = {
    {"BE", "Belgium", "Europe"}, {"NL", "Netherlands", "Europe"}, {"DE", "Germany", "europe"},
    {"FR", "France", "Europe"}, {"US", "United States", "Americas"}, {"BR", "Brazil", "Americas"},
    {"JP", "Japan", "Asia"}, {"NO", "Norway", null}, {"IN", "India", "Asia"}, {"ZA", "South Africa", "Africa"},
    {"AQ", "Antarctica", null}, {"ÉS", "Éspaña", "Europe"},
  };

  public static final List<String> TABLES = List.of("comments", "posts", "users", "countries");

  /** CREATE TABLE texts without declarations (the oracle) in creation order. */
  static final List<String> DDL = List.of(
      "CREATE TABLE countries (code CHAR(2) NOT NULL PRIMARY KEY, name VARCHAR(40) NOT NULL, region VARCHAR(20) NULL)",
      "CREATE TABLE users (user_id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(40) NOT NULL, country_code CHAR(2) NULL,"
          + " score INT NULL, balance DECIMAL(10,2) NULL, created DATE NOT NULL)",
      "CREATE TABLE posts (post_id BIGINT NOT NULL PRIMARY KEY, user_id BIGINT NOT NULL, title VARCHAR(80) NOT NULL,"
          + " likes INT NULL, rating DECIMAL(4,2) NULL, category VARCHAR(20) NULL, created DATETIME NOT NULL,"
          + " KEY posts_user (user_id))",
      "CREATE TABLE comments (comment_id BIGINT NOT NULL PRIMARY KEY, user_id BIGINT NOT NULL, post_id BIGINT NOT NULL,"
          + " body VARCHAR(100) NOT NULL, stars INT NULL, KEY comments_post (user_id, post_id))");

  /** The in-band declaration each table gets when created through Shardex. */
  static String declaration(String ddl) {
    return ddl.startsWith("CREATE TABLE countries") ? "/* shardex:global */ " : "/* shardex:sharded key=user_id */ ";
  }

  record User(long id, String name, String country, Integer score, BigDecimal balance, LocalDate created) {}

  record Post(long id, long user, String title, Integer likes, BigDecimal rating, String category, LocalDateTime created) {}

  record Comment(long id, long user, long post, String body, Integer stars) {}

  final List<User> users = new ArrayList<>();
  final List<Post> posts = new ArrayList<>();
  final List<Comment> comments = new ArrayList<>();
  /** The users with many posts (skew). */
  final List<Long> heavyUsers = new ArrayList<>();
  /** A user id nobody has. */
  final long missingUser = 987_654_321L;
  private final long seed;

  private DifferentialData(long seed) {
    this.seed = seed;
  }

  /** The data for {@link #SEED}; the same on every call. */
  public static DifferentialData generate() {
    return generate(SEED);
  }

  public static DifferentialData generate(long seed) {
    DifferentialData d = new DifferentialData(seed);
    Random r = new Random(seed);
    Set<Long> ids = new LinkedHashSet<>();
    ids.add(-7L);
    ids.add(-42L);
    ids.add(0L);
    while (ids.size() < 240) {
      ids.add(1L + r.nextInt(50_000));
    }
    List<Long> userIds = new ArrayList<>(ids);
    LocalDate base = LocalDate.of(2020, 1, 1);
    for (long id : userIds) {
      Integer score = r.nextInt(10) == 0 ? null : r.nextInt(101) - 50;
      BigDecimal balance = r.nextInt(8) == 0 ? null : BigDecimal.valueOf(r.nextInt(600_001) - 100_000, 2);
      if (balance != null && r.nextInt(6) == 0) {
        balance = BigDecimal.valueOf(r.nextInt(5) * 2500L, 2); // duplicates: 0.00, 25.00, 50.00, ...
      }
      String country = r.nextInt(9) == 0 ? null : pick(r, USER_COUNTRIES);
      d.users.add(new User(id, pick(r, NAMES), country, score, balance, base.plusDays(r.nextInt(1500))));
    }
    // Skew: three users own well over a hundred posts each; a fifth of users own none.
    d.heavyUsers.add(userIds.get(5));
    d.heavyUsers.add(userIds.get(77));
    d.heavyUsers.add(userIds.get(1)); // a negative key
    long postId = 1000;
    LocalDateTime t0 = LocalDateTime.of(2023, 1, 1, 0, 0);
    for (User u : d.users) {
      int n = d.heavyUsers.contains(u.id()) ? 120 + r.nextInt(60) : (r.nextInt(5) == 0 ? 0 : 1 + r.nextInt(6));
      for (int i = 0; i < n; i++) {
        postId += 1 + r.nextInt(3);
        Integer likes = r.nextInt(9) == 0 ? null : (r.nextInt(3) == 0 ? r.nextInt(5) : r.nextInt(260) - 20);
        BigDecimal rating = r.nextInt(5) == 0 ? null : BigDecimal.valueOf(r.nextInt(1001) - 100, 2);
        String category = r.nextInt(7) == 0 ? null : pick(r, CATEGORIES);
        // Minutes on a coarse grid so DATETIMEs tie across users.
        LocalDateTime created = t0.plusMinutes(15L * r.nextInt(40_000));
        String title = pick(r, WORDS) + " " + pick(r, WORDS) + (r.nextInt(4) == 0 ? "" : " " + r.nextInt(50));
        d.posts.add(new Post(postId, u.id(), title, likes, rating, category, created));
      }
    }
    long commentId = 1;
    for (Post p : d.posts) {
      int n = r.nextInt(3) == 0 ? 0 : r.nextInt(3);
      if (r.nextInt(40) == 0) {
        n = 8 + r.nextInt(10); // a few busy threads
      }
      for (int i = 0; i < n; i++) {
        Integer stars = r.nextInt(6) == 0 ? null : 1 + r.nextInt(5);
        String body = pick(r, WORDS) + (r.nextBoolean() ? "!" : " " + pick(r, WORDS).toLowerCase());
        d.comments.add(new Comment(commentId++, p.user(), p.id(), body, stars));
      }
    }
    return d;
  }

  private static <T> T pick(Random r, List<T> from) {
    return from.get(r.nextInt(from.size()));
  }

  List<Long> userIds() {
    List<Long> out = new ArrayList<>();
    for (User u : users) {
      out.add(u.id());
    }
    return Collections.unmodifiableList(out);
  }

  List<Long> postIds() {
    List<Long> out = new ArrayList<>();
    for (Post p : posts) {
      out.add(p.id());
    }
    return out;
  }

  /** The INSERT statements that load every table, multi-row, in chunks; the same text for both sides. */
  List<String> inserts() {
    List<String> out = new ArrayList<>();
    List<String> rows = new ArrayList<>();
    for (String[] c : COUNTRIES) {
      rows.add("(" + lit(c[0]) + ", " + lit(c[1]) + ", " + lit(c[2]) + ")");
    }
    chunk(out, "INSERT INTO countries (code, name, region) VALUES ", rows, 100);
    rows.clear();
    for (User u : users) {
      rows.add("(" + u.id() + ", " + lit(u.name()) + ", " + lit(u.country()) + ", " + u.score() + ", "
          + u.balance() + ", " + lit(u.created().toString()) + ")");
    }
    chunk(out, "INSERT INTO users (user_id, name, country_code, score, balance, created) VALUES ", rows, 60);
    rows.clear();
    for (Post p : posts) {
      rows.add("(" + p.id() + ", " + p.user() + ", " + lit(p.title()) + ", " + p.likes() + ", " + p.rating() + ", "
          + lit(p.category()) + ", " + lit(p.created().toString().replace('T', ' ')) + ")");
    }
    chunk(out, "INSERT INTO posts (post_id, user_id, title, likes, rating, category, created) VALUES ", rows, 150);
    rows.clear();
    for (Comment c : comments) {
      rows.add("(" + c.id() + ", " + c.user() + ", " + c.post() + ", " + lit(c.body()) + ", " + c.stars() + ")");
    }
    chunk(out, "INSERT INTO comments (comment_id, user_id, post_id, body, stars) VALUES ", rows, 150);
    return out;
  }

  private static void chunk(List<String> out, String head, List<String> rows, int size) {
    for (int i = 0; i < rows.size(); i += size) {
      out.add(head + String.join(", ", rows.subList(i, Math.min(rows.size(), i + size))));
    }
  }

  static String lit(String s) {
    return s == null ? "NULL" : "'" + s.replace("'", "''") + "'";
  }

  int rowCount(String table) {
    return switch (table) {
      case "users" -> users.size();
      case "posts" -> posts.size();
      case "comments" -> comments.size();
      case "countries" -> COUNTRIES.length;
      default -> throw new IllegalArgumentException(table);
    };
  }

  /** Creates the tables (with declarations when {@code declare}) and loads every row. */
  void load(Connection c, boolean declare) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String table : TABLES) {
        s.execute("DROP TABLE IF EXISTS " + table);
      }
      for (String ddl : DDL) {
        s.execute(declare ? declaration(ddl) + ddl : ddl);
      }
      for (String insert : inserts()) {
        s.executeUpdate(insert);
      }
    }
  }

  /** Loads the oracle: one plain server, tables created directly. */
  void loadOracle(Connection oracle) throws SQLException {
    load(oracle, false);
  }

  /** Loads the sharded cluster through Shardex (declared tables; multi-row INSERTs split per shard). */
  void loadShardex(Connection shardex) throws SQLException {
    load(shardex, true);
  }

  @Override
  public String toString() {
    return "DifferentialData[seed " + seed + ": " + users.size() + " users, " + posts.size() + " posts, "
        + comments.size() + " comments, " + COUNTRIES.length + " countries; heavy users " + heavyUsers + "]";
  }
}
