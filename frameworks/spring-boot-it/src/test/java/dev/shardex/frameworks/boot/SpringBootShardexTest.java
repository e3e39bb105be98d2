package dev.shardex.frameworks.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.Environment;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Spring Boot 3.5 + HikariCP + Spring Data JPA (Hibernate 6) + JdbcTemplate, configured with nothing but
 * {@code spring.datasource.url=jdbc:shardex:sandbox:boot?shards=4} and a schema.sql run by spring.sql.init,
 * default Shardex options. Each test checks the shards directly, and that HikariCP evicted nothing (it
 * logs "marked as broken" for each connection it evicts).
 */
@SpringBootTest
@ExtendWith(OutputCaptureExtension.class)
class SpringBootShardexTest {
  @Autowired DataSource dataSource;
  @Autowired Environment environment;
  @Autowired BlogService blog;
  @Autowired AuthorRepository authors;
  @Autowired PostRepository posts;
  @Autowired CountryRepository countries;
  @Autowired JdbcTemplate jdbc;

  @AfterEach
  void hikariEvictedNothing(CapturedOutput output) {
    assertThat(output.getAll()).doesNotContain("marked as broken");
    assertThat(((HikariDataSource) dataSource).getHikariPoolMXBean().getTotalConnections()).isPositive();
  }

  @Test
  void theUrlAloneConfiguresBootsHikariPool() {
    assertThat(dataSource).isInstanceOf(HikariDataSource.class);
    assertThat(((HikariDataSource) dataSource).getJdbcUrl()).isEqualTo("jdbc:shardex:sandbox:boot?shards=4");
    assertThat(environment.getProperty("spring.datasource.driver-class-name")).isEqualTo("dev.shardex.driver.ShardexDriver");
  }

  @Test
  void schemaSqlDeclaresTheTables() throws Exception {
    for (int shard = 0; shard < Shards.COUNT; shard++) {
      assertThat(Shards.query(shard, "SHOW TABLES")).as("shard %d", shard).contains("author", "post", "country");
      assertThat(Shards.query(shard, "SELECT code FROM country ORDER BY code")).as("GLOBAL country on shard %d", shard)
          .contains("BR", "FR", "JP");
    }
  }

  @Test
  void eightUsersAreCreatedEachOnItsShard() throws Exception {
    for (long id = 1; id <= 8; id++) {
      blog.register(id, "user" + id, id % 2 == 0 ? "FR" : "JP");
    }
    for (long id = 1; id <= 8; id++) {
      int owner = Shards.owner(dataSource, id);
      for (int shard = 0; shard < Shards.COUNT; shard++) {
        assertThat(Shards.query(shard, "SELECT name FROM author WHERE user_id = " + id))
            .as("user %d on shard %d (owner %d)", id, shard, owner)
            .isEqualTo(shard == owner ? List.of("user" + id) : List.of());
      }
      assertThat(authors.findById(id)).map(Author::getName).contains("user" + id);
    }
    assertThat(List.of(1, 2, 3, 4, 5, 6, 7, 8).stream().map(id -> {
      try {
        return Shards.owner(dataSource, id);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }).distinct().count()).as("8 users spread over more than one shard").isGreaterThan(1);
  }

  @Test
  void compositeIdsSaveAndLoadOnTheUsersShard() throws Exception {
    for (long user = 21; user <= 24; user++) {
      blog.register(user, "writer" + user, "BR");
      blog.publish(user, 1, "first of " + user);
      blog.publish(user, 2, "second of " + user);
    }
    for (long user = 21; user <= 24; user++) {
      int owner = Shards.owner(dataSource, user);
      for (int shard = 0; shard < Shards.COUNT; shard++) {
        assertThat(Shards.query(shard, "SELECT post_id FROM post WHERE user_id = " + user + " ORDER BY post_id"))
            .as("posts of %d on shard %d (owner %d)", user, shard, owner)
            .isEqualTo(shard == owner ? List.of("1", "2") : List.of());
      }
      assertThat(posts.findById(new PostId(user, 2L))).map(Post::getTitle).contains("second of " + user);
      assertThat(posts.findByUserIdOrderByPostId(user)).extracting(Post::getPostId).containsExactly(1L, 2L);
    }
    assertThat(posts.findAllById(List.of(new PostId(21L, 1L), new PostId(24L, 2L)))).hasSize(2);
  }

  @Test
  void countFindAllAndPagesScatterInReadOnlyTransactions() throws Exception {
    for (long id = 41; id <= 46; id++) {
      blog.register(id, "reader" + id, "FR");
    }
    long everywhere = Shards.total("author");
    assertThat(authors.count()).isEqualTo(everywhere);
    assertThat(authors.findAll()).hasSize((int) everywhere);
    Page<Author> page = authors.findAll(PageRequest.of(0, 3, Sort.by("userId")));
    assertThat(page.getTotalElements()).isEqualTo(everywhere);
    assertThat(page.getContent()).extracting(Author::getUserId).isSorted().hasSize(3);
    Page<Author> second = authors.findAll(PageRequest.of(1, 3, Sort.by("userId")));
    assertThat(second.getContent().get(0).getUserId()).isGreaterThan(page.getContent().get(2).getUserId());
  }

  @Test
  void aGlobalWriteInATransactionLandsOnEveryShard() throws Exception {
    blog.addCountry("NZ", "New Zealand");
    for (int shard = 0; shard < Shards.COUNT; shard++) {
      assertThat(Shards.query(shard, "SELECT name FROM country WHERE code = 'NZ'")).as("shard %d", shard)
          .containsExactly("New Zealand");
    }
    assertThat(countries.findById("NZ")).map(Country::getName).contains("New Zealand");
  }

  @Test
  void jdbcTemplateWritesAndReadsByKeyAndAcrossShards() throws Exception {
    for (long user = 61; user <= 64; user++) {
      jdbc.update("INSERT INTO author (user_id, name, country_code) VALUES (?, ?, ?)", user, "jdbc" + user, "JP");
      jdbc.update("INSERT INTO post (user_id, post_id, title) VALUES (?, ?, ?)", user, 1, "by jdbc");
    }
    for (long user = 61; user <= 64; user++) {
      int owner = Shards.owner(dataSource, user);
      assertThat(Shards.query(owner, "SELECT name FROM author WHERE user_id = " + user)).containsExactly("jdbc" + user);
      assertThat(jdbc.queryForList("SELECT title FROM post WHERE user_id = ?", String.class, user)).containsExactly("by jdbc");
    }
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM post WHERE title = 'by jdbc'", Long.class)).isEqualTo(4L);
    assertThat(jdbc.queryForList("SELECT user_id FROM author WHERE user_id IN (61, 62, 63, 64) ORDER BY user_id", Long.class))
        .containsExactly(61L, 62L, 63L, 64L);
  }
}
