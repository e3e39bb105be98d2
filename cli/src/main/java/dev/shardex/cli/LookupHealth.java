package dev.shardex.cli;

import dev.shardex.directory.move.LookupVerifier.Finding;
import dev.shardex.directory.move.LookupVerifier.Report;
import java.util.Map;

/** How {@code lookups verify} and {@code verify} print a lookup's health. */
final class LookupHealth {
  private LookupHealth() {}

  /** {@code lookup pets.id: 1 missing, 2 extra, 0 duplicate entries}, and what to run when any. */
  static String summary(Report r, boolean repaired) {
    String counts = "lookup " + r.lookup().table() + "." + r.lookup().column() + ": " + r.missing() + " missing, " + r.extra()
        + " extra, " + r.duplicate() + " duplicate entr" + (r.duplicate() == 1 ? "y" : "ies");
    if (r.clean()) {
      return counts + ": OK";
    }
    if (repaired) {
      return counts + " (" + r.repaired() + " repaired)" + (r.duplicate() > 0 ? "; duplicates are left: make the rows unique" : "");
    }
    return counts + "; run 'shardex lookups verify " + r.lookup().table() + " " + r.lookup().column() + " --repair'"
        + (r.duplicate() > 0 ? " (duplicates it leaves: make the rows unique)" : "");
  }

  /** {@code missing entry '5' -> key 2: no entry}, {@code extra entry '99' -> key 2: ...}, {@code duplicate value '7' under key 9: ...}. */
  static String line(Finding f) {
    return switch (f.kind()) {
      case MISSING -> "missing entry '" + f.v() + "' -> key " + f.k() + ": " + f.detail();
      case EXTRA -> "extra entry '" + f.v() + "' -> key " + f.k() + ": " + f.detail();
      case DUPLICATE -> "duplicate value '" + f.v() + "' under key " + f.k() + ": " + f.detail();
    };
  }

  static Map<String, Object> json(Report r) {
    return Json.obj("table", r.lookup().table(), "column", r.lookup().column(), "unique", r.lookup().unique(),
        "missing", r.missing(), "extra", r.extra(), "duplicate", r.duplicate(), "repaired", r.repaired(), "clean", r.clean());
  }

  static Map<String, Object> json(Finding f) {
    return Json.obj("kind", f.kind().name().toLowerCase(java.util.Locale.ROOT), "value", f.v(), "key", f.k(), "detail", f.detail());
  }
}
