package dev.shardex.directory.placement;

/** Where one key lives now, as the key map says. */
public record Placement(int shardId, KeyState state, long version) {
  public boolean frozen() {
    return state == KeyState.FROZEN;
  }
}
