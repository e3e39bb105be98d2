package dev.shardex.driver.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The one-pass normaliser gives exactly what the old one gave (text, literal values, failures) on
 * random texts built from the pieces that make lexing hard: quotes inside quotes, escapes,
 * comments of every kind, hints, hex/bit/introduced literals, signs, INTERVAL, positions after BY,
 * LIMIT, non-ASCII letters and digits, unterminated strings and comments. And the cache key built
 * without copying the text equals a normalised text's key exactly when the texts are equal.
 */
class NormaliserEquivalenceTest {
  private static final String[] PIECES = {"SELECT", "select", "FROM", "WHERE", "ORDER", "GROUP", "BY", "by", "bY",
      "LIMIT", "OFFSET", "Oﬀset", "INTERVAL", "interval", "DAY", "IN", "AND", "or", "ON", "SET", "VALUES", "JOIN",
      "(", ")", ",", "=", "<>", "!", "<", ">", "-", "+", "*", "/", ".", "?", ";", " ", " ", " ", "  ", "\n", "\t",
      "\u00a0", "\u2003", "42", "0", "-7", "- 7", "3.14", ".5", "1.", "1.2.3", "1e3", "1e", "1E-2", "1e+5", "1e999",
      "1e-500", "12345678901234567890", "123456789012345678", "1234567890123456789", "0x1F", "0b101", "0xZ",
      "x'1F'", "b'101'", "X'AB'", "_utf8'x'", "N'y'", "'abc'", "'it''s'", "'a\\'b'", "'c\\\\d'", "'e\\nf\\Z\\0'",
      "\"dq\"", "\"x\"\"y\"", "'?'", "'-- x'", "'/* x */'", "'", "\"", "`", "`col 1`", "`a``b`", "`x'1`", "/* c */",
      "/*+ INDEX(t idx) */", "/* shardex: key=5 */", "/* shardex:key='a' */", "/*", "*/", "-- ", "--", "-- x 5\n",
      "#", "# c 'x' 6\n", "t1", "x2y", "user_id", "$a", "_b", "é", "ſelect", "ı", "٣", "١٢", "ﬀ", "\\", "'tail",
      "1abc", "a-1", "a.1", "1.a", "e5", "users.id", "DECIMAL(10,2)", "IN (1, 2, -3)", "LIMIT 10", "LIMIT 5, 10",
      "ORDER BY 1, 2", "GROUP BY 2 DESC", "NOW() - INTERVAL 7 DAY"};

  @Test
  void normalise_randomTexts_sameAsTheOldNormaliser() {
    Random random = new Random(12);
    String previousText = "";
    PlainKey previousKey = PlainKey.of("");
    for (int round = 0; round < 200_000; round++) {
      String sql = randomText(random);
      String expected = outcome(() -> LegacyNormaliser.normalise(sql));
      assertEquals(expected, outcome(() -> SqlLexer.normalise(sql)), "normalise of <" + sql + ">");
      NormalizedSql legacy;
      try {
        legacy = LegacyNormaliser.normalise(sql);
      } catch (RuntimeException e) {
        continue;
      }
      String text = legacy.text();
      PlainKey key = LiteralScanner.scan(sql);
      assertEquals(PlainKey.of(text).hashCode(), key.hashCode(), "hash of <" + sql + ">");
      assertEquals(true, key.equals(PlainKey.of(text)), "key of <" + sql + ">");
      assertEquals(true, PlainKey.of(text).equals(key), "key of <" + sql + ">");
      String other = mutate(text, random);
      assertEquals(other.equals(text), key.equals(PlainKey.of(other)), "<" + sql + "> against <" + other + ">");
      assertEquals(other.equals(text), PlainKey.of(other).equals(key), "<" + sql + "> against <" + other + ">");
      assertEquals(text.equals(previousText), key.equals(previousKey), "<" + text + "> against <" + previousText + ">");
      previousText = text;
      previousKey = key;
    }
  }

  private static String randomText(Random random) {
    StringBuilder sql = new StringBuilder();
    int pieces = 1 + random.nextInt(14);
    for (int p = 0; p < pieces; p++) {
      sql.append(PIECES[random.nextInt(PIECES.length)]);
      if (random.nextInt(3) > 0) {
        sql.append(' ');
      }
    }
    return sql.toString();
  }

  /** The text with one character changed, dropped or added (sometimes a ? or a digit), or unchanged. */
  private static String mutate(String text, Random random) {
    if (text.isEmpty() || random.nextInt(5) == 0) {
      return text;
    }
    int at = random.nextInt(text.length());
    char c = "?1 'a-".charAt(random.nextInt(6));
    return switch (random.nextInt(3)) {
      case 0 -> text.substring(0, at) + c + text.substring(at + 1);
      case 1 -> text.substring(0, at) + text.substring(at + 1);
      default -> text.substring(0, at) + c + text.substring(at);
    };
  }

  private static String outcome(java.util.function.Supplier<NormalizedSql> normalise) {
    try {
      NormalizedSql n = normalise.get();
      StringBuilder s = new StringBuilder(n.text());
      for (Object literal : n.literals()) {
        s.append(" | ").append(literal.getClass().getSimpleName()).append(':').append(literal);
      }
      return s.toString();
    } catch (RuntimeException e) {
      return e.getClass().getName();
    }
  }

  @Test
  void key_longTexts_sameKeyAsTheirNormalisedText() {
    Random random = new Random(7);
    for (int round = 0; round < 20; round++) {
      StringBuilder sql = new StringBuilder();
      while (sql.length() < 1024 * (1 + round % 3) + random.nextInt(3000)) {
        sql.append(randomText(random)).append(' ');
      }
      String text = LegacyNormaliser.normalise(sql.toString()).text();
      PlainKey key = LiteralScanner.scan(sql.toString());
      assertEquals(PlainKey.of(text).hashCode(), key.hashCode());
      assertEquals(true, key.equals(PlainKey.of(text)));
      assertEquals(false, key.equals(PlainKey.of(text + " ")));
    }
  }
}
