package dev.shardex.frameworks.mybatis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.shardex.frameworks.Sandbox;
import java.io.InputStream;
import java.io.Reader;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.apache.ibatis.io.Resources;
import org.apache.ibatis.jdbc.ScriptRunner;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PetClinic's owners, pets and visits through a MyBatis XML mapper (the same entities as the Spring
 * PetClinic test app): ids alone as primary keys, seed data by INSERT IGNORE with explicit ids, and every
 * row found, changed and removed by its own id, which Shardex routes through the tables' lookups.
 */
class MyBatisClinicTest {
  private static final Sandbox SANDBOX = new Sandbox("mybatis");
  private static SqlSessionFactory factory;

  @BeforeAll
  static void schemaAndSeedData() throws Exception {
    try (InputStream config = Resources.getResourceAsStream("mybatis-config.xml")) {
      factory = new SqlSessionFactoryBuilder().build(config);
    }
    for (int run = 0; run < 2; run++) { // seed data runs again at every start: INSERT IGNORE keeps it once
      try (SqlSession session = factory.openSession(); Reader script = Resources.getResourceAsReader("clinic-schema.sql")) {
        ScriptRunner runner = new ScriptRunner(session.getConnection());
        runner.setLogWriter(null);
        runner.setStopOnError(true);
        runner.runScript(script);
      }
    }
  }

  private static long everywhere(String sql) throws Exception {
    return Arrays.stream(SANDBOX.onEachShard(sql)).sum();
  }

  @Test
  void seedRowsAreFoundByTheirIdsOnce() throws Exception {
    assertEquals(1, everywhere("SELECT COUNT(*) FROM pets WHERE id = 1"));
    try (SqlSession session = factory.openSession()) {
      ClinicMapper clinic = session.getMapper(ClinicMapper.class);
      assertEquals("Leo", clinic.pet(1).getName());
      assertEquals(1, clinic.pet(1).getOwnerId());
      assertEquals("rabies shot", clinic.visit(1).getDescription());
      assertNull(clinic.pet(424_242), "an id no row has: no row, as on one server");
    }
  }

  /** A new owner, their pet and its visit, committed in one session: their ids {owner, pet, visit}. */
  static int[] writeOwnerPetAndVisit(SqlSessionFactory factory) {
    try (SqlSession session = factory.openSession()) {
      ClinicMapper clinic = session.getMapper(ClinicMapper.class);
      ClinicOwner owner = new ClinicOwner("Ada", "Lovelace");
      clinic.insertOwner(owner);
      ClinicPet pet = new ClinicPet("Babbage", LocalDate.of(2020, 1, 2), owner.getId());
      clinic.insertPet(pet);
      ClinicVisit visit = new ClinicVisit(pet.getId(), LocalDate.of(2024, 5, 6), "check-up");
      clinic.insertVisit(visit);
      session.commit();
      return new int[] {owner.getId(), pet.getId(), visit.getId()};
    }
  }

  @Test
  void ownerPetAndVisitAreWrittenFoundChangedAndRemovedByTheirIds() throws Exception {
    int[] ids = writeOwnerPetAndVisit(factory);
    int ownerId = ids[0];
    int petId = ids[1];
    int visitId = ids[2];
    List<Integer> route = SANDBOX.route("SELECT * FROM owners WHERE id = " + ownerId);
    assertEquals(1, route.size(), "an owner lives on one shard: " + route);
    int ownersShard = route.get(0);
    assertEquals(1, SANDBOX.onShard(ownersShard, "SELECT COUNT(*) FROM pets WHERE id = ? AND owner_id = ?", petId, ownerId),
        "the pet lives with its owner");
    try (SqlSession session = factory.openSession()) {
      ClinicMapper clinic = session.getMapper(ClinicMapper.class);
      assertEquals("Babbage", clinic.pet(petId).getName());
      assertEquals(List.of("check-up"), clinic.visitsOfPet(petId).stream().map(ClinicVisit::getDescription).toList());
      assertEquals(1, clinic.renamePet(petId, "Charles"));
      assertEquals(1, clinic.deleteVisit(visitId));
      assertEquals(1, clinic.deletePet(petId));
      assertEquals(0, clinic.deletePet(petId), "deleted: 0 rows, as on one server");
      session.commit();
    }
    assertEquals(0, everywhere("SELECT COUNT(*) FROM pets WHERE id = " + petId));
    assertEquals(0, everywhere("SELECT COUNT(*) FROM visits WHERE id = " + visitId));
  }

  @Test
  void aPetIdThatLivesWithAnotherOwnerIsADuplicateAsOnOneServer() throws Exception {
    try (SqlSession session = factory.openSession(true); java.sql.Statement s = session.getConnection().createStatement()) {
      java.sql.SQLException e = assertThrows(java.sql.SQLException.class,
          () -> s.executeUpdate("INSERT INTO pets VALUES (1, 'Impostor', NULL, 2)"));
      assertEquals("23000", e.getSQLState(), e.getMessage());
      assertEquals(1062, e.getErrorCode(), e.getMessage());
    }
    assertEquals(1, everywhere("SELECT COUNT(*) FROM pets WHERE id = 1"), "pet 1 exists once, with owner 1");
  }
}
