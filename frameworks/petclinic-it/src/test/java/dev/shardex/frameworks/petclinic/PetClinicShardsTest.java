package dev.shardex.frameworks.petclinic;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.time.LocalDate;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The same app with its writes committed, checked behind its back on the shards: every pet lives with its owner,
 * every visit with its pet's key, ids repeat nowhere, and rows are found, changed and removed by their own ids.
 */
@SpringBootTest
@ExtendWith(OutputCaptureExtension.class)
class PetClinicShardsTest {
  @Autowired OwnerRepository owners;
  @Autowired PetRepository pets;
  @Autowired DataSource dataSource;
  @Autowired TransactionTemplate tx;

  @AfterEach
  void hikariEvictedNothing(CapturedOutput output) {
    assertThat(output.getAll()).doesNotContain("marked as broken");
    assertThat(((HikariDataSource) dataSource).getHikariPoolMXBean().getTotalConnections()).isPositive();
  }

  @Test
  void seedDataLivesWithItsOwners() throws Exception {
    assertThat(Shards.holding("pets", "id = 7")).containsExactly(Shards.owner(dataSource, 6));
    assertThat(Shards.holding("visits", "id IN (1, 4)")).containsExactly(Shards.owner(dataSource, 7));
    assertThat(Shards.total("pets")).isGreaterThanOrEqualTo(13);
  }

  @Test
  void aNewOwnerWithANewPetAndVisitIsWrittenToTheOwnersShard() throws Exception {
    Integer[] ids = tx.execute(status -> {
      Owner owner = new Owner();
      owner.setFirstName("Ada");
      owner.setLastName("Lovelace");
      owner.setCity("London");
      Pet pet = new Pet();
      pet.setName("Babbage");
      pet.setBirthDate(LocalDate.of(2020, 1, 2));
      pet.setType(EntityUtils.getById(owners.findPetTypes(), PetType.class, 1));
      owner.addPet(pet);
      Visit visit = new Visit();
      visit.setDescription("first check-up");
      pet.addVisit(visit);
      owners.save(owner);
      Owner saved = owners.findByLastNameStartingWith("Lovelace", org.springframework.data.domain.Pageable.unpaged()).getContent().get(0);
      return new Integer[] {saved.getId(), saved.getPet("Babbage").getId()};
    });
    int shard = Shards.owner(dataSource, ids[0]);
    assertThat(Shards.query(shard, "SELECT owner_id FROM pets WHERE id = " + ids[1])).containsExactly(ids[0].toString());
    assertThat(Shards.holding("pets", "id = " + ids[1])).containsExactly(shard);
    assertThat(Shards.holding("visits", "description = 'first check-up'")).containsExactly(Shards.owner(dataSource, ids[1]));
    Owner again = owners.findById(ids[0]).get();
    assertThat(again.getPet("Babbage").getVisits()).extracting(Visit::getDescription).containsExactly("first check-up");
  }

  @Test
  void aPetIsUpdatedAndDeletedByItsOwnId() throws Exception {
    // Hibernate writes the pet by its id alone: update pets set ... where id=?, delete from pets where id=?
    tx.executeWithoutResult(status -> {
      Pet leo = owners.findById(1).get().getPet(1);
      assertThat(leo.getName()).isIn("Leo", "Leonard");
      leo.setName("Leonard");
    });
    int shard = Shards.owner(dataSource, 1);
    assertThat(Shards.query(shard, "SELECT name FROM pets WHERE id = 1")).containsExactly("Leonard");

    Integer id = tx.execute(status -> {
      Owner owner = owners.findById(2).get();
      Pet pet = new Pet();
      pet.setName("Short-lived");
      pet.setType(EntityUtils.getById(owners.findPetTypes(), PetType.class, 2));
      owner.addPet(pet);
      owners.save(owner);
      return owners.findById(2).get().getPet("Short-lived").getId();
    });
    assertThat(Shards.holding("pets", "id = " + id)).containsExactly(Shards.owner(dataSource, 2));
    assertThat(pets.deleteByIdOnly(id)).isEqualTo(1); // delete from pets where id=?
    assertThat(pets.deleteByIdOnly(id)).isZero();
    assertThat(Shards.holding("pets", "id = " + id)).isEmpty();
    assertThat(owners.findById(2).get().getPet(id)).isNull();
  }

  @Test
  void findingAPetByIdJoinsItsVisitsAcrossShards() {
    // PetClinic maps Pet.visits EAGER: em.find(Pet) joins pets to visits on pets.id = visits.pet_id, which is
    // neither table's shard key (pets: owner_id, visits: pet_id): a cross-shard lookup join answers it.
    Pet samantha = pets.findById(7).orElseThrow();
    assertThat(samantha.getName()).isEqualTo("Samantha");
    assertThat(samantha.getVisits()).extracting(Visit::getDescription).contains("rabies shot", "spayed");
    assertThat(pets.findById(2).orElseThrow().getVisits()).isEmpty(); // a LEFT JOIN with no visit
    assertThat(pets.findById(999)).isEmpty();
  }

  @Test
  void seedDataRunsAgainWithoutDuplicatingAnything() throws Exception {
    long before = Shards.total("pets");
    try (var c = dataSource.getConnection(); var s = c.createStatement()) {
      s.executeUpdate("INSERT IGNORE INTO pets VALUES (1, 'Leo', '2000-09-07', 1, 1)");
      s.executeUpdate("INSERT IGNORE INTO visits VALUES (1, 7, '2010-03-04', 'rabies shot')");
    }
    assertThat(Shards.total("pets")).isEqualTo(before);
    assertThat(Shards.holding("pets", "id = 1")).hasSize(1);
    assertThat(Shards.holding("visits", "id = 1")).hasSize(1);
  }

  @Test
  void idsRepeatOnNoShard() throws Exception {
    for (String table : List.of("owners", "pets", "visits")) {
      long rows = Shards.total(table);
      long distinct = 0;
      java.util.Set<String> ids = new java.util.HashSet<>();
      for (int shard = 0; shard < Shards.COUNT; shard++) {
        ids.addAll(Shards.query(shard, "SELECT id FROM " + table));
      }
      distinct = ids.size();
      assertThat(distinct).as("distinct ids of %s", table).isEqualTo(rows);
    }
  }
}
