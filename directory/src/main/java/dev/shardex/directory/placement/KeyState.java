package dev.shardex.directory.placement;

/** ACTIVE keys route normally; FROZEN keys are being moved: reads go on, writes wait. */
public enum KeyState {
  ACTIVE,
  FROZEN
}
