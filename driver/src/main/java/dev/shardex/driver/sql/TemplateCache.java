package dev.shardex.driver.sql;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * Never parse the same SQL text twice. Prepared statements are cached by their text; plain
 * statements are first normalised (literals out, {@code ?} in) so texts that differ only in
 * literals share one entry, and the literals travel with each execution as its values.
 *
 * <p>Some literals cannot become parameters ({@code DECIMAL(10,2)}, {@code INTERVAL 1 DAY} in some
 * positions): when the normalised text does not parse, the raw text is parsed and cached under
 * its own key, and the normalised key remembers to skip straight to it next time.
 */
public final class TemplateCache {
  private static final String[] NORMALISED_LIST = {"SELECT", "WITH", "INSERT", "REPLACE", "UPDATE", "DELETE"};
  private static final Set<String> NORMALISED = Set.of(NORMALISED_LIST);
  private static final RouteTemplate RAW_ONLY = RouteTemplate.simple(StatementType.OTHER, 0, Hints.NONE, null);
  private static final Object[] NO_VALUES = new Object[0];

  private final Cache<String, RouteTemplate> cache;
  private final Cache<PlainKey, Normalised> normalised;
  private final Cache<String, MergeSpec> merges;
  private final LongAdder analyses = new LongAdder();

  public TemplateCache(long maximumSize) {
    this.cache = Caffeine.newBuilder().maximumSize(maximumSize).build();
    this.normalised = Caffeine.newBuilder().maximumSize(maximumSize).build();
    this.merges = Caffeine.newBuilder().maximumSize(maximumSize).build();
  }

  /** The template of a prepared statement's text. */
  public RouteTemplate prepared(String sql) throws SQLException {
    RouteTemplate t = cache.getIfPresent(sql);
    if (t == null) {
      t = analyse(sql);
      cache.put(sql, t);
    }
    return t;
  }

  /**
   * The template of a plain statement and the values of its literals. On a cache hit this copies
   * no text: the key compares the statement with the cached normalised text in place.
   */
  @SuppressWarnings("ReferenceEquality") // RAW_ONLY is a sentinel entry, told by identity
  public Analysis plain(String sql) throws SQLException {
    if (!normalisable(sql)) {
      return new Analysis(prepared(sql), NO_VALUES, sql);
    }
    PlainKey key = LiteralScanner.scan(sql);
    Normalised entry = normalised.getIfPresent(key);
    if (entry == null) {
      String text = key.text();
      int markers = SqlLexer.countParameters(text);
      try {
        entry = new Normalised(analyse(text), text, markers);
      } catch (SQLException unparameterisable) {
        if (key.count() == 0) {
          throw unparameterisable; // nothing was replaced: the text itself does not parse
        }
        entry = new Normalised(RAW_ONLY, text, markers);
      }
      normalised.put(PlainKey.of(text), entry);
    }
    if (entry.markers() != key.count()) {
      throw markerInPlainText(sql); // a ? of the text's own, beside the literals' placeholders
    }
    if (entry.template() == RAW_ONLY) {
      return new Analysis(prepared(sql), NO_VALUES, sql);
    }
    return new Analysis(entry.template(), key.values(), entry.text());
  }

  /**
   * A normalised text, its template ({@link #RAW_ONLY} when only the raw text parses) and how many
   * {@code ?} markers it holds: as many as the literals it replaced, unless the text had its own.
   */
  private record Normalised(RouteTemplate template, String text, int markers) {}

  /** A plain Statement whose text has a ? marker: no value can be bound to it. */
  private static SQLException markerInPlainText(String sql) {
    return ShardexError.UNSUPPORTED.exception("a ? marker in the text of a plain Statement ('"
        + SqlLexer.abbreviate(sql) + "')",
        "bind its value with a PreparedStatement, or write the value into the text");
  }

  /** Whether the first keyword is one of {@link #NORMALISED}, without copying it when it is ASCII. */
  private static boolean normalisable(String sql) {
    int start = SqlLexer.keywordStart(sql);
    int end = SqlLexer.keywordEnd(sql, start);
    for (int k = start; k < end; k++) {
      if (sql.charAt(k) >= 128) { // upper-casing may change its length: ask the JDK
        return NORMALISED.contains(SqlLexer.firstKeyword(sql));
      }
    }
    for (String keyword : NORMALISED_LIST) {
      if (keyword.length() == end - start && sql.regionMatches(true, start, keyword, 0, end - start)) {
        return true;
      }
    }
    return false;
  }

  /** Builds a cross-shard plan's part from a statement's text; null for "none". */
  public interface StepLoader<T> {
    T load() throws SQLException;
  }

  private static final Object NONE = new Object();
  private final com.github.benmanes.caffeine.cache.Cache<Object, Object> steps =
      com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(10_000).build();

  /**
   * A cross-shard statement's split or pull-out, built once per key (the caller puts the catalog
   * version and the text in it, so a declaration or lookup change builds it again); null is kept too.
   * A key is a String, or a record whose text is the statement's own String (found by identity).
   */
  @SuppressWarnings("unchecked")
  public <T> T crossShard(Object key, StepLoader<T> loader) throws SQLException {
    Object v = steps.getIfPresent(key);
    if (v == null) {
      T built = loader.load();
      steps.put(key, built == null ? NONE : built);
      return built;
    }
    return v == NONE ? null : (T) v;
  }

  /**
   * How a SELECT (by its analysed text) runs on several shards and merges; rewritten once per text.
   * {@code windows}: whether each of its window functions is partitioned by a shard key (the route
   * stage's finding, {@code Router.windows}), so the shards compute them.
   */
  public MergeSpec merge(String analysedText, String shards, WindowRule windows) throws SQLException {
    String key = windows.onShards() ? "windows on shards|" + analysedText : analysedText;
    MergeSpec spec = merges.getIfPresent(key);
    if (spec == null) {
      spec = MergeRewriter.rewrite(analysedText, shards, windows);
      merges.put(key, spec);
    }
    return spec;
  }

  private RouteTemplate analyse(String sql) throws SQLException {
    analyses.increment();
    return Analyzer.analyze(sql);
  }

  /** How many texts were analysed (parsed) so far: cache misses. */
  public long analyses() {
    return analyses.sum();
  }
}
