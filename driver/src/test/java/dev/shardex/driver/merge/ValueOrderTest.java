package dev.shardex.driver.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** Numbers as the merge weighs them. */
class ValueOrderTest {

  @Test
  void decimal_overflowedSumOfDoubles_isPastEveryFiniteDoubleWithItsSign() {
    // the long fuzz run (seed 77): SUM(d) of 1e308 on two shards folds to Infinity; HAVING SUM(d) ended in SHX1509
    assertTrue(ValueOrder.decimal(Double.POSITIVE_INFINITY).compareTo(new BigDecimal(Double.MAX_VALUE)) > 0);
    assertTrue(ValueOrder.decimal(Double.NEGATIVE_INFINITY).compareTo(new BigDecimal(-Double.MAX_VALUE)) < 0);
    assertEquals(0, ValueOrder.decimal(Double.NaN).signum());
    assertEquals(Boolean.TRUE, HavingEvaluator.truth(1e308 + 1e308));
    assertEquals(Boolean.TRUE, HavingEvaluator.truth(Float.NEGATIVE_INFINITY));
  }
}
