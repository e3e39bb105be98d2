package dev.shardex.driver.lookups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.lookup.Lookup;
import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code lookup=COLUMN [unique]} in both declaration forms lands in the directory's lookup catalog. */
class LookupDeclarationTest {

  private static List<Lookup> lookups(String table) throws SQLException {
    try (Connection c = TestCluster.connect()) {
      return TestCluster.cluster(c).directory().lookups().store().of(table);
    }
  }

  @Test
  void tableComment_severalLookups_uniqueAppliesToThePreviousOne() throws Exception {
    TestCluster.run("CREATE TABLE ld_people (id BIGINT PRIMARY KEY, owner_id BIGINT, email VARCHAR(100), last_name VARCHAR(50),"
        + " UNIQUE KEY (email)) COMMENT='shardex:sharded key=owner_id lookup=id unique lookup=email unique lookup=last_name'");
    List<Lookup> found = lookups("ld_people");
    assertEquals(List.of("id unique", "email unique", "last_name"),
        found.stream().map(l -> l.column() + (l.unique() ? " unique" : "")).toList());
  }

  @Test
  void leadingComment_declaresALookup() throws Exception {
    TestCluster.run("/* shardex:sharded key=owner_id lookup=ID unique */ CREATE TABLE ld_pets (id BIGINT PRIMARY KEY, owner_id BIGINT)");
    List<Lookup> found = lookups("ld_pets");
    assertEquals(1, found.size());
    assertEquals("id", found.get(0).column());
    assertTrue(found.get(0).unique());
  }

  @Test
  void renameTable_carriesItsLookups_dropTableForgetsThem() throws Exception {
    TestCluster.run("CREATE TABLE ld_old (id BIGINT PRIMARY KEY, owner_id BIGINT) COMMENT='shardex:sharded key=owner_id lookup=id unique'",
        "INSERT INTO ld_old VALUES (5, 50)", "RENAME TABLE ld_old TO ld_new");
    assertEquals(List.of(), lookups("ld_old"));
    assertEquals(1, lookups("ld_new").size());
    try (Connection c = TestCluster.connect()) {
      assertEquals("50", LookupRoutingTest.one(c, "SELECT owner_id FROM ld_new WHERE id = 5"));
    }
    TestCluster.run("DROP TABLE ld_new");
    assertEquals(List.of(), lookups("ld_new"));
  }

  @Test
  void uniqueWithoutALookup_isRefusedByName() {
    SQLException e = assertThrows(SQLException.class, () -> TestCluster.run(
        "CREATE TABLE ld_bad (id BIGINT PRIMARY KEY, owner_id BIGINT) COMMENT='shardex:sharded key=owner_id unique lookup=id'"));
    assertTrue(e.getMessage().contains("SHX1103") && e.getMessage().contains("lookup=COLUMN unique"), e.getMessage());
  }

  @Test
  void lookupOnAGlobalTable_isRefusedByName() {
    SQLException e = assertThrows(SQLException.class, () -> TestCluster.run(
        "CREATE TABLE ld_glob (id BIGINT PRIMARY KEY) COMMENT='shardex:global lookup=id'"));
    assertTrue(e.getMessage().contains("SHX1103") && e.getMessage().contains("SHARDED tables only"), e.getMessage());
  }
}
