package dev.shardex.driver.differential;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The schema and data of the cross-shard join shapes (research joins-research.md §7): two tables
 * sharded by different columns ({@code users} by {@code id}, {@code orders} by {@code seller_id}),
 * {@code order_items} co-located with orders, {@code coupons} by {@code owner_id}, {@code
 * countries} GLOBAL. The data carries §7's traps: orders with a NULL or dangling buyer, buyers with
 * orders on several sellers' shards, users referring to themselves, to nobody or to a user on
 * another shard, coupon codes equal under utf8mb4_general_ci but not in Java ('SAVE10', 'save10',
 * 'save10 ', 'sävé10'), the same code under several owners, NULL totals, countries without users,
 * unique {@code created_at}, and one seller with far more orders than the others.
 */
final class JoinShapesData {
  static final int USERS = 60;
  static final int SELLERS = 12;
  static final int ORDERS = 420;
  /** The seller with a hundred-plus orders. */
  static final long SKEWED_SELLER = 3;
  /** A buyer no user row has. */
  static final long DANGLING = 999;

  static final List<String> DDL = List.of(
      "CREATE TABLE countries (code CHAR(2) PRIMARY KEY, name VARCHAR(64))",
      "CREATE TABLE users (id BIGINT PRIMARY KEY, name VARCHAR(64) COLLATE utf8mb4_general_ci, country CHAR(2),"
          + " status VARCHAR(16), referrer_id BIGINT NULL, credit_limit DECIMAL(12,2))",
      "CREATE TABLE orders (id BIGINT PRIMARY KEY, seller_id BIGINT NOT NULL, buyer_id BIGINT NULL, status VARCHAR(16),"
          + " total DECIMAL(12,2) NULL, coupon VARCHAR(20) COLLATE utf8mb4_general_ci NULL, created_at DATETIME(3))",
      "CREATE TABLE order_items (order_id BIGINT, seller_id BIGINT, sku VARCHAR(32) COLLATE utf8mb4_general_ci, qty INT,"
          + " price DECIMAL(10,2))",
      "CREATE TABLE coupons (owner_id BIGINT, code VARCHAR(20) COLLATE utf8mb4_general_ci, pct INT,"
          + " PRIMARY KEY (owner_id, code))");
  /** Shardex's declaration of each table, in {@link #DDL}'s order. */
  static final List<String> DECLARATIONS = List.of("/* shardex:global */ ", "/* shardex:sharded key=id */ ",
      "/* shardex:sharded key=seller_id */ ", "/* shardex:sharded key=seller_id */ ", "/* shardex:sharded key=owner_id */ ");
  static final List<String> TABLES = List.of("order_items", "coupons", "orders", "users", "countries");

  static final String[] COUNTRY_CODES = {"BE", "NL", "DE", "FR", "US", "JP", "AQ", "ZA"};
  static final String[] STATUSES = {"active", "vip", "blocked", "Active"};
  static final String[] ORDER_STATUSES = {"open", "paid", "shipped", "Open"};
  static final String[] CODES = {"SAVE10", "save10", "save10 ", "sävé10", "WELCOME", "spring"};
  /** SKUs without case variants of one another: which spelling a server keeps for a group is not defined. */
  static final String[] SKUS = {"apple", "banana", "cherry", "delta", "echo", "fox", "golf"};

  final List<String> inserts = new ArrayList<>();

  JoinShapesData() {
    Random r = new Random(20_261_127L);
    StringBuilder countries = new StringBuilder("INSERT INTO countries (code, name) VALUES ");
    for (int i = 0; i < COUNTRY_CODES.length; i++) {
      countries.append(i == 0 ? "" : ", ").append("('").append(COUNTRY_CODES[i]).append("', 'Country ").append(i).append("')");
    }
    inserts.add(countries.toString());
    List<String> users = new ArrayList<>();
    for (int id = 1; id <= USERS; id++) {
      // AQ and ZA have no users; a sixth of the users point at themselves, a sixth at nobody
      String country = COUNTRY_CODES[r.nextInt(6)];
      String referrer = id % 6 == 0 ? "NULL" : id % 6 == 1 ? Long.toString(id) : Long.toString(1 + r.nextInt(USERS));
      String limit = id % 7 == 0 ? "NULL" : (50 + r.nextInt(400)) + ".00";
      users.add("(" + id + ", '" + (id % 5 == 0 ? "Name" + id : "name" + id) + "', '" + country + "', '"
          + STATUSES[r.nextInt(STATUSES.length)] + "', " + referrer + ", " + limit + ")");
    }
    inserts.add("INSERT INTO users (id, name, country, status, referrer_id, credit_limit) VALUES " + String.join(", ", users));
    List<String> orders = new ArrayList<>();
    List<String> items = new ArrayList<>();
    for (int id = 1; id <= ORDERS; id++) {
      long seller = id % 4 == 0 ? SKEWED_SELLER : 1 + r.nextInt(SELLERS);
      int b = r.nextInt(20);
      String buyer = b == 0 ? "NULL" : b == 1 ? Long.toString(DANGLING) : Long.toString(1 + r.nextInt(USERS));
      String total = r.nextInt(12) == 0 ? "NULL" : (1 + r.nextInt(900)) + "." + (10 + r.nextInt(90));
      String coupon = r.nextInt(3) == 0 ? "NULL" : "'" + CODES[r.nextInt(CODES.length)] + "'";
      String created = String.format(java.util.Locale.ROOT, "'2026-01-%02d %02d:%02d:%02d.%03d'", 1 + id % 28, id % 24,
          id % 60, (id * 7) % 60, id);
      orders.add("(" + id + ", " + seller + ", " + buyer + ", '" + ORDER_STATUSES[r.nextInt(ORDER_STATUSES.length)] + "', "
          + total + ", " + coupon + ", " + created + ")");
      for (int k = r.nextInt(3); k > 0; k--) {
        String sku = r.nextInt(10) == 0 ? "NULL" : "'" + SKUS[r.nextInt(SKUS.length)] + "'";
        items.add("(" + id + ", " + seller + ", " + sku + ", " + (1 + r.nextInt(4)) + ", " + (1 + r.nextInt(50)) + ".50)");
      }
    }
    inserts.add("INSERT INTO orders (id, seller_id, buyer_id, status, total, coupon, created_at) VALUES "
        + String.join(", ", orders));
    inserts.add("INSERT INTO order_items (order_id, seller_id, sku, qty, price) VALUES " + String.join(", ", items));
    List<String> coupons = new ArrayList<>();
    for (long owner = 1; owner <= SELLERS; owner++) {
      for (String code : CODES) {
        // each owner holds a few codes; 'SAVE10' and its collation twins never under one owner (the key is unique)
        boolean twin = code.equalsIgnoreCase("save10") || code.equals("sävé10") || code.equals("save10 ");
        if ((twin && !code.equals(CODES[(int) (owner % 4)])) || (!twin && r.nextBoolean())) {
          continue;
        }
        coupons.add("(" + owner + ", '" + code + "', " + (5 + r.nextInt(30)) + ")");
      }
    }
    inserts.add("INSERT INTO coupons (owner_id, code, pct) VALUES " + String.join(", ", coupons));
  }

  /** Creates and fills the tables; {@code declared} prefixes each CREATE with Shardex's declaration. */
  void load(Connection c, boolean declared) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String t : TABLES) {
        s.execute("DROP TABLE IF EXISTS " + t);
      }
      for (int i = 0; i < DDL.size(); i++) {
        s.execute((declared ? DECLARATIONS.get(i) : "") + DDL.get(i));
      }
      for (String insert : inserts) {
        s.execute(insert);
      }
    }
  }
}
