package dev.shardex.directory.move;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.move.CatchUpGuard.Verdict;
import org.junit.jupiter.api.Test;

/** The catch-up's decisions round by round: go on while the backlog shrinks, freeze when it is small, stop when it stalls large. */
class CatchUpGuardTest {
  static final CatchUpLimits LIMITS = new CatchUpLimits(10_000, 3, 3_600_000);

  @Test
  void aShrinkingBacklog_goesOn_untilItIsSmall() {
    CatchUpGuard g = new CatchUpGuard(LIMITS, 50_000);
    assertEquals(Verdict.GO_ON, g.after(10_000, 45_000));
    assertEquals(Verdict.GO_ON, g.after(10_000, 38_000));
    assertEquals(Verdict.GO_ON, g.after(10_000, 5_000));
    assertEquals(Verdict.FREEZE, g.after(5_000, 40), "fewer than 64 left");
    assertEquals(4, g.rounds());
    assertEquals(35_000, g.applied());
  }

  @Test
  void aRoundThatFoundFew_freezes() {
    assertEquals(Verdict.FREEZE, new CatchUpGuard(LIMITS, 10).after(10, 70));
  }

  @Test
  void aFullRoundOfATinySize_isNotTakenForAFewRecords() {
    CatchUpGuard g = new CatchUpGuard(new CatchUpLimits(5, 3, 3_600_000), 1_000);
    assertEquals(Verdict.GO_ON, g.after(5, 1_200));
    assertEquals(Verdict.FREEZE, g.after(4, 1_300), "a round that found fewer than its size found all there was");
  }

  @Test
  void aGrowingBacklog_stopsAfterTheStallRounds() {
    CatchUpGuard g = new CatchUpGuard(LIMITS, 26_316);
    // 64 records a round: at most 256,000 records/s even if the 4 rounds took 1 ms, so 49,322 left take > 100 ms
    assertEquals(Verdict.GO_ON, g.after(64, 30_000));
    assertEquals(Verdict.GO_ON, g.after(64, 35_000));
    assertEquals(Verdict.GO_ON, g.after(64, 40_000));
    assertEquals(Verdict.STOP, g.after(64, 49_322), "3 rounds without a new low, and 49,322 left");
    assertTrue(g.whyStopped().startsWith("backlog 26316 -> 49322 record(s) over 4 round(s)"), g.whyStopped());
    assertTrue(g.whyStopped().contains("lowest 30000 at round 1"), g.whyStopped());
  }

  @Test
  void aBacklogThatStallsSmall_freezes_forItFitsAShortFrozenRound() {
    CatchUpGuard g = new CatchUpGuard(LIMITS, 5_000);
    assertEquals(Verdict.GO_ON, g.after(5_000, 100));
    assertEquals(Verdict.GO_ON, g.after(100, 120));
    assertEquals(Verdict.GO_ON, g.after(120, 110));
    // 5,220 records applied within milliseconds: 100 left take far less than the 100 ms budget
    assertEquals(Verdict.FREEZE, g.after(110, 100));
  }

  @Test
  void aNewLow_resetsTheStallCount() {
    CatchUpGuard g = new CatchUpGuard(LIMITS, 100_000);
    assertEquals(Verdict.GO_ON, g.after(64, 90_000));
    assertEquals(Verdict.GO_ON, g.after(64, 95_000));
    assertEquals(Verdict.GO_ON, g.after(64, 95_000));
    assertEquals(Verdict.GO_ON, g.after(64, 89_000), "a new low");
    assertEquals(Verdict.GO_ON, g.after(64, 95_000));
    assertEquals(Verdict.GO_ON, g.after(64, 95_000));
    assertEquals(Verdict.STOP, g.after(64, 95_000));
  }
}
