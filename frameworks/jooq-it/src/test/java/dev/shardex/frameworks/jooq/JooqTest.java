package dev.shardex.frameworks.jooq;

import static org.jooq.impl.DSL.count;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.ShardexDataSource;
import dev.shardex.frameworks.Sandbox;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.jooq.BatchBindStep;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * jOOQ 3.19 (open source, MYSQL dialect) as its manual shows it, without code generation: tables
 * and fields by name, {@code DSL.using(connection, dialect)} and {@code DSL.using(dataSource,
 * dialect)}, bind values everywhere (jOOQ's default), {@code transaction(...)}. Only the URL is
 * Shardex's; Shardex runs with its default options.
 */
class JooqTest {
  static {
    System.setProperty("org.jooq.no-logo", "true");
    System.setProperty("org.jooq.no-tips", "true");
  }

  private static final Sandbox SANDBOX = new Sandbox("jooq");
  private static final Table<Record> POSTS = table(name("posts"));
  private static final Field<Long> USER_ID = field(name("user_id"), SQLDataType.BIGINT);
  private static final Field<Long> POST_ID = field(name("post_id"), SQLDataType.BIGINT);
  private static final Field<String> TITLE = field(name("title"), SQLDataType.VARCHAR(100));
  private static final long[] SEEDED = {1, 2, 3, 4, 5, 6, 7, 8};
  private static final int POSTS_PER_USER = 5;

  private static DSLContext withDataSource() {
    ShardexDataSource dataSource = new ShardexDataSource();
    dataSource.setUrl(SANDBOX.url());
    return DSL.using(dataSource, SQLDialect.MYSQL);
  }

  @BeforeAll
  static void schemaAndRows() throws Exception {
    try (Connection connection = DriverManager.getConnection(SANDBOX.url())) {
      DSLContext ctx = DSL.using(connection, SQLDialect.MYSQL);
      ctx.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS posts ("
          + "user_id BIGINT NOT NULL, post_id BIGINT NOT NULL, title VARCHAR(100) NOT NULL, PRIMARY KEY (user_id, post_id))");
      // One multi-row INSERT across all users: Shardex splits it so each shard gets its own rows.
      var insert = ctx.insertInto(POSTS, USER_ID, POST_ID, TITLE);
      for (long user : SEEDED) {
        for (long post = 1; post <= POSTS_PER_USER; post++) {
          insert = insert.values(user, post, "post " + post + " of " + user);
        }
      }
      assertEquals(SEEDED.length * POSTS_PER_USER, insert.execute());
    }
  }

  @Test
  void multiRowInsertLandsOnEachUsersShard() throws Exception {
    assertTrue(SANDBOX.assertRowsOnOwnShards("posts", SEEDED, POSTS_PER_USER) > 1, "the users spread over several shards");
  }

  @Test
  void pageOfOneUserWithLimitAndOffsetBindValues() throws Exception {
    try (Connection connection = DriverManager.getConnection(SANDBOX.url())) {
      // select ... where user_id = ? order by post_id limit ? offset ?
      List<String> titles = DSL.using(connection, SQLDialect.MYSQL)
          .select(TITLE).from(POSTS).where(USER_ID.eq(3L)).orderBy(POST_ID).limit(2).offset(1)
          .fetch(TITLE);
      assertEquals(List.of("post 2 of 3", "post 3 of 3"), titles);
    }
  }

  @Test
  void scatterCountAndGroupByAcrossShards() throws Exception {
    DSLContext ctx = withDataSource();
    long onShards = Arrays.stream(SANDBOX.onEachShard("SELECT COUNT(*) FROM posts")).sum();
    assertEquals(onShards, ctx.fetchCount(POSTS));
    List<Integer> perUser = ctx.select(USER_ID, count()).from(POSTS)
        .where(USER_ID.in(Arrays.stream(SEEDED).boxed().toList()))
        .groupBy(USER_ID).orderBy(USER_ID).fetch(count());
    assertEquals(SEEDED.length, perUser.size());
    perUser.forEach(n -> assertEquals(POSTS_PER_USER, n));
  }

  @Test
  void batchWithBindValuesAcrossUsers() throws Exception {
    long[] users = LongStream.rangeClosed(401, 408).toArray();
    DSLContext ctx = withDataSource();
    BatchBindStep batch = ctx.batch(ctx.insertInto(POSTS, USER_ID, POST_ID, TITLE).values((Long) null, null, null));
    for (long user : users) {
      batch = batch.bind(user, 1L, "batch of " + user);
    }
    int[] counts = batch.execute();
    assertEquals(users.length, counts.length);
    Arrays.stream(counts).forEach(n -> assertEquals(1, n));
    assertTrue(SANDBOX.assertRowsOnOwnShards("posts", users, 1) > 1, "the users spread over several shards");
  }

  @Test
  void fetchExistsWithAndWithoutTheKey() {
    DSLContext ctx = withDataSource();
    assertTrue(ctx.fetchExists(ctx.selectFrom(POSTS).where(USER_ID.eq(3L))));
    assertFalse(ctx.fetchExists(ctx.selectFrom(POSTS).where(USER_ID.eq(999L))));
    // select exists (select * from posts) without the key: the subquery runs first (LIMIT 1), its answer goes in
    assertTrue(ctx.fetchExists(ctx.selectFrom(POSTS)));
    assertFalse(ctx.fetchExists(ctx.selectFrom(POSTS).where(TITLE.eq("no post has this title"))));
  }

  @Test
  void transactionOfOneUserCommitsAndAThrowingOneRollsBack() throws Exception {
    DSLContext ctx = withDataSource();
    ctx.transaction(cfg -> {
      DSL.using(cfg).insertInto(POSTS, USER_ID, POST_ID, TITLE).values(101L, 1L, "committed").execute();
      DSL.using(cfg).update(POSTS).set(TITLE, "committed, edited").where(USER_ID.eq(101L)).and(POST_ID.eq(1L)).execute();
    });
    assertThrows(IllegalStateException.class, () -> ctx.transaction(cfg -> {
      DSL.using(cfg).insertInto(POSTS, USER_ID, POST_ID, TITLE).values(101L, 2L, "rolled back").execute();
      throw new IllegalStateException("the application gives up");
    }));
    assertEquals(List.of("committed, edited"), ctx.select(TITLE).from(POSTS).where(USER_ID.eq(101L)).fetch(TITLE));
    SANDBOX.assertRowsOnOwnShards("posts", new long[] {101}, 1);
  }

  @Test
  void transactionAcrossUsersCommitsOnEachUsersShard() throws Exception {
    long[] users = LongStream.rangeClosed(201, 208).toArray();
    withDataSource().transaction(cfg -> {
      for (long user : users) {
        DSL.using(cfg).insertInto(POSTS, USER_ID, POST_ID, TITLE).values(user, 1L, "tx of " + user).execute();
      }
    });
    assertTrue(SANDBOX.assertRowsOnOwnShards("posts", users, 1) > 1, "the users spread over several shards");
  }

  @Test
  void createTableWithJooqsCommentOptionDeclaresIt() throws Exception {
    DSLContext ctx = withDataSource();
    // jOOQ's DDL API renders the declaration as the table's own COMMENT option (no SQL comment to lose).
    ctx.createTableIfNotExists("likes")
        .column("user_id", SQLDataType.BIGINT.notNull())
        .column("post_id", SQLDataType.BIGINT.notNull())
        .primaryKey("user_id", "post_id")
        .comment("shardex:sharded key=user_id")
        .execute();
    long[] users = LongStream.rangeClosed(301, 308).toArray();
    for (long user : users) {
      ctx.insertInto(table(name("likes")), field(name("user_id")), field(name("post_id"))).values(user, 1L).execute();
    }
    for (int shard = 0; shard < Sandbox.SHARDS; shard++) {
      assertTrue(SANDBOX.tableOnShard(shard, "likes"), "likes on shard " + shard);
    }
    assertTrue(SANDBOX.assertRowsOnOwnShards("likes", users, 1) > 1, "the users spread over several shards");
  }
}
