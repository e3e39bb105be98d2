package dev.shardex.frameworks.mybatis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.frameworks.Sandbox;
import java.io.InputStream;
import java.io.Reader;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.ibatis.io.Resources;
import org.apache.ibatis.jdbc.ScriptRunner;
import org.apache.ibatis.session.ExecutorType;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * MyBatis 3 as its "Getting started" shows it: an XML configuration (POOLED data source, JDBC
 * transactions) read by SqlSessionFactoryBuilder, an XML mapper, default {@code openSession()}
 * (autocommit off, so every session is a transaction), a BATCH session, and ScriptRunner for the
 * schema. Only the URL in mybatis-config.xml is Shardex's; Shardex runs with its default options.
 */
class MyBatisTest {
  private static final Sandbox SANDBOX = new Sandbox("mybatis");
  private static final long[] SEEDED = {1, 2, 3, 4, 5, 6, 7, 8};
  private static SqlSessionFactory factory;

  @BeforeAll
  static void buildFactoryAndSchema() throws Exception {
    try (InputStream config = Resources.getResourceAsStream("mybatis-config.xml")) {
      factory = new SqlSessionFactoryBuilder().build(config);
    }
    runScript("schema.sql");
    // Seed rows in an autocommit session, so the reading tests do not depend on the transactional ones.
    try (SqlSession session = factory.openSession(true)) {
      PostMapper posts = session.getMapper(PostMapper.class);
      for (long user : SEEDED) {
        posts.insert(new Post(user, 1, "first of " + user));
        posts.insert(new Post(user, 2, "second of " + user));
      }
    }
  }

  /** ScriptRunner with its defaults: autocommit off, the whole script one transaction, committed at the end. */
  private static void runScript(String resource) throws Exception {
    try (SqlSession session = factory.openSession(); Reader script = Resources.getResourceAsReader(resource)) {
      Connection connection = session.getConnection();
      ScriptRunner runner = new ScriptRunner(connection);
      runner.setLogWriter(null);
      runner.setStopOnError(true);
      runner.runScript(script);
    }
  }

  @Test
  void scriptRunnerDeclaresTablesAndFillsAGlobalTableOnEveryShard() throws Exception {
    runScript("reference-data.sql");
    for (int shard = 0; shard < Sandbox.SHARDS; shard++) {
      assertTrue(SANDBOX.tableOnShard(shard, "posts"), "posts on shard " + shard);
      assertEquals(3, SANDBOX.onShard(shard, "SELECT COUNT(*) FROM countries"), "countries on shard " + shard);
    }
    try (SqlSession session = factory.openSession()) {
      assertEquals(List.of("Belgium", "France", "Netherlands"), session.getMapper(PostMapper.class).countries());
    }
  }

  @Test
  void sessionInsertsAcrossUsersCommitOnEachUsersShard() throws Exception {
    long[] users = LongStream.rangeClosed(101, 108).toArray();
    try (SqlSession session = factory.openSession()) {
      PostMapper posts = session.getMapper(PostMapper.class);
      for (long user : users) {
        posts.insert(new Post(user, 1, "tx " + user));
      }
      session.commit();
    }
    assertTrue(SANDBOX.assertRowsOnOwnShards("posts", users, 1) > 1, "the users spread over several shards");
  }

  @Test
  void foreachInListAcrossUsersReadsEveryUsersRows() throws Exception {
    try (SqlSession session = factory.openSession()) {
      List<Post> rows = session.getMapper(PostMapper.class).byUsers(Arrays.stream(SEEDED).boxed().toList());
      List<String> expected = new ArrayList<>();
      for (long user : SEEDED) {
        expected.add(user + "/1:first of " + user);
        expected.add(user + "/2:second of " + user);
      }
      assertEquals(expected, rows.stream().map(Post::toString).toList());
    }
    assertTrue(SANDBOX.assertRowsOnOwnShards("posts", SEEDED, 2) > 1, "the users spread over several shards");
  }

  @Test
  void scatterCountSumsEveryShard() throws Exception {
    long onShards = Arrays.stream(SANDBOX.onEachShard("SELECT COUNT(*) FROM posts")).sum();
    assertTrue(onShards >= 2 * SEEDED.length);
    try (SqlSession session = factory.openSession()) {
      assertEquals(onShards, session.getMapper(PostMapper.class).countAll());
    }
  }

  @Test
  void batchSessionInsertsAcrossUsers() throws Exception {
    long[] users = LongStream.rangeClosed(201, 208).toArray();
    try (SqlSession session = factory.openSession(ExecutorType.BATCH)) {
      PostMapper posts = session.getMapper(PostMapper.class);
      for (long user : users) {
        posts.insert(new Post(user, 1, "batch " + user));
        posts.insert(new Post(user, 2, "batch " + user));
      }
      session.commit();
    }
    assertTrue(SANDBOX.assertRowsOnOwnShards("posts", users, 2) > 1, "the users spread over several shards");
  }

  /** Issue 18: a {@code <selectKey>} reading SELECT LAST_INSERT_ID() gets each user's own row id, in a transaction and in autocommit. */
  @Test
  void selectKeyLastInsertIdIsTheIdOfTheInsertedRow() throws Exception {
    for (boolean autocommit : new boolean[] {false, true}) {
      try (SqlSession session = factory.openSession(autocommit)) {
        PostMapper mapper = session.getMapper(PostMapper.class);
        for (long user = 401; user <= 408; user++) {
          java.util.Map<String, Object> event = new java.util.HashMap<>(java.util.Map.of("userId", user,
              "kind", "login " + autocommit));
          mapper.insertEvent(event);
          assertEquals(mapper.eventId(user, "login " + autocommit), event.get("id"), "user " + user);
        }
        session.commit();
      }
    }
  }

  @Test
  void rollbackOfOneUsersSessionLeavesNothing() throws Exception {
    try (SqlSession session = factory.openSession()) {
      session.getMapper(PostMapper.class).insert(new Post(301, 1, "rolled back"));
      session.rollback();
    }
    assertEquals(0, Arrays.stream(SANDBOX.onEachShard("SELECT COUNT(*) FROM posts WHERE user_id = 301")).sum());
  }
}
