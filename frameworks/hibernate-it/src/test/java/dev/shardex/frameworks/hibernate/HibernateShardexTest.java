package dev.shardex.frameworks.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.placement.Placement;
import dev.shardex.driver.jdbc.ShardexConnection;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.hibernate.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Plain Hibernate 6 through Jakarta Persistence: persistence.xml names the URL
 * {@code jdbc:shardex:sandbox:hibernate?shards=4} and HikariCP as the pool, the schema comes from Hibernate's
 * own export (the entities' {@code @Comment} is the Shardex declaration), default Shardex options. Each test
 * checks the shards directly, and that HikariCP evicted nothing (it logs "marked as broken" for each eviction).
 */
class HibernateShardexTest {
  static final int SHARDS = 4;
  static final SandboxCluster SANDBOX = SandboxCluster.shared("hibernate", SHARDS);
  static final ByteArrayOutputStream LOG = new ByteArrayOutputStream();
  static PrintStream stderr;
  static EntityManagerFactory emf;

  @BeforeAll
  static void start() {
    stderr = System.err;
    System.setErr(new PrintStream(new Tee(stderr, LOG), true, StandardCharsets.UTF_8));
    // the capture sees what HikariCP's ProxyConnection logs (it warns once per evicted connection)
    LoggerFactory.getLogger("com.zaxxer.hikari.pool.ProxyConnection").warn("eviction log capture is on");
    assertTrue(LOG.toString(StandardCharsets.UTF_8).contains("eviction log capture is on"), "stderr capture works");
    emf = Persistence.createEntityManagerFactory("blog");
    inTransaction(em -> {
      em.persist(new Currency("EUR", "Euro"));
      em.persist(new Currency("JPY", "Yen"));
    });
  }

  @AfterAll
  static void stop() {
    if (emf != null) {
      emf.close();
    }
    System.setErr(stderr);
  }

  @AfterEach
  void hikariEvictedNothing() {
    String log = LOG.toString(StandardCharsets.UTF_8);
    assertFalse(log.contains("marked as broken"), "HikariCP evicted a connection:\n" + log);
  }

  @Test
  void aGlobalWriteInATransactionLandsOnEveryShard() throws Exception {
    inTransaction(em -> em.persist(new Currency("BRL", "Real")));
    for (int shard = 0; shard < SHARDS; shard++) {
      assertEquals(List.of("EUR", "JPY", "BRL").stream().sorted().toList(),
          query(shard, "SELECT code FROM currency ORDER BY code"), "shard " + shard);
    }
    EntityManager em = emf.createEntityManager();
    assertEquals("Real", em.find(Currency.class, "BRL").getName());
    em.close();
  }

  @Test
  void eightAccountsAreCreatedEachOnItsShard() throws Exception {
    for (long id = 1; id <= 8; id++) {
      long user = id;
      inTransaction(em -> {
        Currency eur = em.find(Currency.class, user % 2 == 0 ? "EUR" : "JPY"); // a GLOBAL read, then a SHARDED write
        em.persist(new Account(user, "account" + user, eur.getCode()));
      });
    }
    List<Integer> owners = new ArrayList<>();
    for (long id = 1; id <= 8; id++) {
      int owner = owner(id);
      owners.add(owner);
      for (int shard = 0; shard < SHARDS; shard++) {
        assertEquals(shard == owner ? List.of("account" + id) : List.of(),
            query(shard, "SELECT name FROM account WHERE user_id = " + id), "account " + id + " on shard " + shard);
      }
      EntityManager em = emf.createEntityManager();
      assertEquals("account" + id, em.find(Account.class, id).getName());
      em.close();
    }
    assertTrue(owners.stream().distinct().count() > 1, "8 users over more than one shard: " + owners);
  }

  @Test
  void compositeIdsLoadByRowValues() throws Exception {
    for (long user = 21; user <= 24; user++) {
      long u = user;
      inTransaction(em -> {
        em.persist(new Account(u, "writer" + u, "EUR"));
        em.persist(new Note(new NoteId(u, 1L), "first of " + u));
        em.persist(new Note(new NoteId(u, 2L), "second of " + u));
      });
    }
    for (long user = 21; user <= 24; user++) {
      int owner = owner(user);
      for (int shard = 0; shard < SHARDS; shard++) {
        assertEquals(shard == owner ? List.of("1", "2") : List.of(),
            query(shard, "SELECT note_id FROM note WHERE user_id = " + user + " ORDER BY note_id"), "notes of " + user);
      }
    }
    EntityManager em = emf.createEntityManager();
    assertEquals("second of 22", em.find(Note.class, new NoteId(22L, 2L)).getBody());
    List<Note> many = em.unwrap(Session.class).byMultipleIds(Note.class)
        .multiLoad(List.of(new NoteId(21L, 1L), new NoteId(24L, 2L)));
    assertEquals(2, many.size());
    many.forEach(n -> assertNotNull(n, "multiLoad found every id"));
    List<Long> mine = em.createQuery("select n.id.noteId from Note n where n.id.userId = :u order by n.id.noteId", Long.class)
        .setParameter("u", 23L).getResultList();
    assertEquals(List.of(1L, 2L), mine);
    em.close();
  }

  @Test
  void countsAndPagesScatterInATransaction() throws Exception {
    for (long id = 41; id <= 46; id++) {
      long user = id;
      inTransaction(em -> em.persist(new Account(user, "reader" + user, "JPY")));
    }
    long everywhere = 0;
    for (int shard = 0; shard < SHARDS; shard++) {
      everywhere += Long.parseLong(query(shard, "SELECT COUNT(*) FROM account").get(0));
    }
    long total = everywhere;
    inTransaction(em -> {
      assertEquals(total, em.createQuery("select count(a) from Account a", Long.class).getSingleResult());
      assertEquals(total, em.createQuery("from Account", Account.class).getResultList().size());
      List<Long> page = em.createQuery("select a.userId from Account a order by a.userId", Long.class)
          .setFirstResult(2).setMaxResults(3).getResultList();
      List<Long> all = em.createQuery("select a.userId from Account a order by a.userId", Long.class).getResultList();
      assertEquals(all.subList(2, 5), page);
    });
  }

  @Test
  void anOwnerWithTwoPets_unidirectionalOneToMany_landsOnTheOwnersShard() throws Exception {
    Owner[] saved = new Owner[1];
    inTransaction(em -> {
      Owner george = new Owner("George");
      george.getPets().add(new Pet("Leo", java.time.LocalDate.of(2020, 9, 7)));
      george.getPets().add(new Pet("Basil", java.time.LocalDate.of(2021, 8, 6)));
      em.persist(george);
      saved[0] = george;
    });
    long id = saved[0].getId();
    int owner = owner(id);
    for (int shard = 0; shard < SHARDS; shard++) {
      assertEquals(shard == owner ? List.of("Basil 2021-08-06", "Leo 2020-09-07") : List.of(),
          query(shard, "SELECT CONCAT(name, ' ', birthDate) FROM pets WHERE owner_id = " + id + " ORDER BY name"),
          "pets of owner " + id + " on shard " + shard);
    }
    EntityManager em = emf.createEntityManager();
    Owner read = em.find(Owner.class, id);
    assertEquals(List.of("Basil", "Leo"), read.getPets().stream().map(Pet::getName).sorted().toList());
    em.close();
  }

  @Test
  void petsAreFoundUpdatedAndRemovedByTheirOwnId() throws Exception {
    List<Long> ids = new ArrayList<>();
    inTransaction(em -> {
      for (long owner = 61; owner <= 64; owner++) {
        PetById pet = new PetById(owner, "pet of " + owner);
        em.persist(pet); // IDENTITY: the id comes back from the sequence Shardex fills it from
        ids.add(pet.getId());
      }
    });
    for (int i = 0; i < ids.size(); i++) {
      long owner = 61 + i;
      long id = ids.get(i);
      assertEquals(List.of("pet of " + owner), query(owner(owner), "SELECT name FROM pet WHERE id = " + id));
      inTransaction(em -> em.find(PetById.class, id).setName("renamed " + id)); // update pet set name=?,owner_id=? where id=?
      assertEquals(List.of("renamed " + id), query(owner(owner), "SELECT name FROM pet WHERE id = " + id));
    }
    inTransaction(em -> em.remove(em.find(PetById.class, ids.get(0)))); // delete from pet where id=?
    EntityManager em = emf.createEntityManager();
    assertEquals(null, em.find(PetById.class, ids.get(0)));
    assertEquals("renamed " + ids.get(1), em.find(PetById.class, ids.get(1)).getName());
    em.close();
    long rows = 0;
    for (int shard = 0; shard < SHARDS; shard++) {
      rows += Long.parseLong(query(shard, "SELECT COUNT(*) FROM pet").get(0));
    }
    assertEquals(3, rows);
  }

  @Test
  void batchedInsertsUpdatesAndRemovesOfTagsKeepTheirLookup() throws Exception {
    int tags = 12;
    inBatches(em -> {
      for (long id = 1; id <= tags; id++) {
        em.persist(new Tag(id, 80 + id % 4, "tag " + id)); // flushed as JDBC batches of 5 INSERTs
      }
    });
    for (long id = 1; id <= tags; id++) {
      assertEquals(List.of("tag " + id), query(owner(80 + id % 4), "SELECT label FROM tag WHERE id = " + id));
    }
    inBatches(em -> {
      for (long id = 1; id <= tags; id++) {
        em.find(Tag.class, id).setLabel("renamed " + id); // batched: update tag set label=?,owner_id=? where id=?
      }
    });
    inBatches(em -> {
      for (long id = 1; id <= 4; id++) {
        em.remove(em.find(Tag.class, id)); // batched: delete from tag where id=?
      }
    });
    EntityManager em = emf.createEntityManager();
    assertEquals(null, em.find(Tag.class, 1L));
    assertEquals("renamed 12", em.find(Tag.class, 12L).getLabel());
    em.close();
    for (long id = 1; id <= tags; id++) {
      assertEquals(id <= 4 ? List.of() : List.of("renamed " + id),
          query(owner(80 + id % 4), "SELECT label FROM tag WHERE id = " + id), "tag " + id);
    }
  }

  /** A transaction whose session sends its writes as JDBC batches of 5 (hibernate.jdbc.batch_size). */
  static void inBatches(Consumer<EntityManager> work) {
    inTransaction(em -> {
      em.unwrap(Session.class).setJdbcBatchSize(5);
      work.accept(em);
    });
  }

  static void inTransaction(Consumer<EntityManager> work) {
    EntityManager em = emf.createEntityManager();
    try {
      em.getTransaction().begin();
      work.accept(em);
      em.getTransaction().commit();
    } finally {
      if (em.getTransaction().isActive()) {
        em.getTransaction().rollback();
      }
      em.close();
    }
  }

  /** The shard the directory places a user on. */
  static int owner(long userId) {
    EntityManager em = emf.createEntityManager();
    try {
      return em.unwrap(Session.class).doReturningWork(c -> {
        Placement p = c.unwrap(ShardexConnection.class).cluster().directory().store()
            .lookup(KeySpace.DEFAULT, Long.toString(userId));
        if (p == null) {
          throw new AssertionError("user " + userId + " has no placement: no SHARDED table received its key"
              + " (did the @Comment declaration reach Shardex as COMMENT='shardex:sharded key=user_id'?)");
        }
        return p.shardId();
      });
    } finally {
      em.close();
    }
  }

  /** A query straight on one shard (no Shardex): the first column of each row. */
  static List<String> query(int shard, String sql) throws SQLException {
    try (Connection c = SANDBOX.connectShard(shard); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      List<String> out = new ArrayList<>();
      while (rs.next()) {
        out.add(rs.getString(1));
      }
      return out;
    }
  }

  /** Copies what the test JVM writes to stderr (slf4j-simple's log) so HikariCP's eviction warnings can be counted. */
  private static final class Tee extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public synchronized void write(int x) throws java.io.IOException {
      a.write(x);
      b.write(x);
    }
  }
}
