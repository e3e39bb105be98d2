package dev.shardex.cli.analyze;

/**
 * One number for "how ready is this workload for N shards", 0 to 100:
 *
 * <pre>
 * score = 100 × (1.0·one + 0.6·several + 0.3·all + 0·refused) / scored × (1 − 0.5 · spanning)
 * </pre>
 *
 * where one, several, all and refused are executions by route, scored is their sum, and spanning is
 * the share of transactions that touch more than one shard (0 when the input has no transactions).
 * A one-shard statement costs what it costs today; a statement on several shards costs a fan-out;
 * one on all shards does not get faster as shards are added; a refused one must be rewritten first;
 * a cross-shard transaction pays for two-phase commit. Rounded to a whole number.
 */
final class Readiness {
  static final String FORMULA = "100 * (1.0*one + 0.6*several + 0.3*all + 0*refused) / scored * (1 - 0.5*spanning_tx_share)";

  private Readiness() {}

  static int score(Tally t, Transactions tx) {
    long scored = t.scored();
    if (scored == 0) {
      return 100;
    }
    double routed = t.count(Route.ONE) + 0.6 * t.count(Route.SEVERAL) + 0.3 * t.count(Route.ALL);
    double spanning = tx.count() == 0 ? 0 : (double) tx.spanning() / tx.count();
    return (int) Math.round(100 * routed / scored * (1 - 0.5 * spanning));
  }
}
