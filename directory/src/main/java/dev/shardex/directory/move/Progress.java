package dev.shardex.directory.move;

/** Where long operations report how far they are (the CLI draws a bar on stderr). */
@FunctionalInterface
public interface Progress {
  Progress NONE = (done, total, label) -> {};

  void update(long done, long total, String label);
}
