package dev.shardex.driver.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The read a DELETE or UPDATE of a table with lookups runs first, for the shapes applications send. */
class LookupSelectTest {
  private static String delete(String sql) {
    LookupSelect read = LookupSelect.of(sql, StatementType.DELETE, List.of("id", "owner_id"));
    return read == null ? null : read.text();
  }

  @Test
  void of_singleTableDelete() {
    assertEquals("SELECT `id`, `owner_id` FROM pets WHERE id = ?", delete("DELETE FROM pets WHERE id = ?"));
    assertEquals("SELECT `id`, `owner_id` FROM pets WHERE id = ?", delete("DELETE QUICK IGNORE FROM pets WHERE id = ?"));
  }

  @Test
  void of_hibernatesAliasedDelete_isItsOneTable() {
    assertEquals("SELECT `id`, `owner_id` FROM pets p1_0 where p1_0.id=?", delete("delete p1_0 from pets p1_0 where p1_0.id=?"));
    assertEquals("SELECT `id`, `owner_id` FROM pets AS p WHERE p.id = 3", delete("DELETE p.* FROM pets AS p WHERE p.id = 3"));
  }

  @Test
  void of_multiTableDelete_hasNoSuchRead() {
    assertNull(delete("DELETE p FROM pets p JOIN owners o ON o.id = p.owner_id WHERE o.id = 1"));
    assertNull(delete("DELETE p, o FROM pets p, owners o WHERE o.id = p.owner_id"));
    assertNull(delete("DELETE o FROM pets p, owners o WHERE o.id = p.owner_id"));
  }
}
