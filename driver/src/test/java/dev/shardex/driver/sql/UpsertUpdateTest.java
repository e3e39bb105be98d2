package dev.shardex.driver.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The UPDATE an ON DUPLICATE KEY UPDATE row becomes on the row of another key it collides with. */
class UpsertUpdateTest {
  /** The inserted row: name 'Leo', visits 3. */
  private static final Map<String, Object> ROW = Map.of("name", "Leo", "visits", 3);

  private static UpsertUpdate of(String sql, Object... params) throws SQLException {
    return UpsertUpdate.of(sql, params, column -> {
      if (!ROW.containsKey(column)) {
        throw new SQLException("no " + column);
      }
      return ROW.get(column);
    }, "pets", "id", 7, "owner_id", 42L);
  }

  @Test
  void of_valuesAndParameters_bindInTextOrder() throws Exception {
    UpsertUpdate u = of("INSERT INTO pets (id, owner_id, name, visits) VALUES (?, ?, ?, ?) ON DUPLICATE KEY UPDATE"
        + " visits = visits + ?, name = VALUES(name)", 7, 9, "Leo", 3, 5);
    assertEquals("UPDATE `pets` SET visits = visits + ?, name = ? WHERE `id` = ? AND `owner_id` = ?", u.text());
    assertEquals(Arrays.asList(5, "Leo", 7, 42L), u.binds());
  }

  @Test
  void of_plainText_keepsItsLiterals_andQuotedTextIsNotRead() throws Exception {
    UpsertUpdate u = of("insert into pets values (7, 9, 'Leo', 3) on duplicate key update name = concat('VALUES(name) ', values ( `name` )),"
        + " `visits` = VALUES(visits) -- VALUES(x)\n;");
    assertEquals("UPDATE `pets` SET name = concat('VALUES(name) ', ?), `visits` = ? -- VALUES(x)\nWHERE `id` = ? AND `owner_id` = ?",
        u.text());
    assertEquals(List.of("Leo", 3, 7, 42L), u.binds());
  }

  @Test
  void of_rowAlias_readsTheInsertedRow() throws Exception {
    UpsertUpdate u = of("INSERT INTO pets (id, owner_id, name) VALUES (7, 9, 'Leo') AS new ON DUPLICATE KEY UPDATE"
        + " name = new.name, visits = pets.visits + new.visits");
    assertEquals("UPDATE `pets` SET name = ?, visits = pets.visits + ? WHERE `id` = ? AND `owner_id` = ?", u.text());
    assertEquals(List.of("Leo", 3, 7, 42L), u.binds());
  }

  @Test
  void of_aColumnTheRowCannotGive_isRefusedByTheCaller() {
    SQLException e = assertThrows(SQLException.class,
        () -> of("INSERT INTO pets (id, owner_id) VALUES (7, 9) ON DUPLICATE KEY UPDATE birth = VALUES(birth)"));
    assertEquals("no birth", e.getMessage());
  }
}
