package dev.shardex.cli.analyze;

import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.route.Router;
import dev.shardex.driver.sql.Analysis;
import dev.shardex.driver.sql.KeyPredicate;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.ValueSource;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One statement through the driver's own stages, as EXPLAIN ROUTE takes it: the template cache
 * (plain texts normalised, so a log's statements that differ only in literals share a template and
 * that template's text is the digest), then the router with a dry-run context, which places no key
 * and runs nothing. A digest's {@code ?} markers get values of their own ({@link DigestText}).
 */
final class DryRun {
  private static final Pattern LITERAL = Pattern.compile("'(?:[^'\\\\]|\\\\.|'')*'|\"(?:[^\"\\\\]|\\\\.)*\"|\\b\\d+(?:\\.\\d+)?\\b");

  /** A statement read into a template: the digest text it shares, its values, or why it could not be read. */
  record Parsed(String digest, RouteTemplate template, Object[] values, boolean synthetic, SQLException failure) {}

  private final WhatIfCluster cluster;

  DryRun(WhatIfCluster cluster) {
    this.cluster = cluster;
  }

  Parsed parse(Logged s) {
    String text = s.normalised() ? DigestText.routable(s.sql()) : s.sql();
    try {
      if (s.normalised()) {
        RouteTemplate t = cluster.templates().prepared(text);
        return new Parsed(text, t, DigestText.values(t.parameterCount()), true, null);
      }
      Analysis a = cluster.templates().plain(text);
      return new Parsed(a.text(), a.template(), a.literals(), false, null);
    } catch (SQLException e) {
      return new Parsed(LITERAL.matcher(text).replaceAll("?"), null, null, s.normalised(), e);
    } catch (RuntimeException | StackOverflowError e) { // a parser failure the driver reports as SHX1101 too
      return new Parsed(LITERAL.matcher(text).replaceAll("?"), null, null, s.normalised(),
          ShardexError.PARSE.exception(String.valueOf(e.getMessage())));
    }
  }

  Verdict route(Parsed p) {
    if (p.failure() != null) {
      return refused(p.failure());
    }
    try {
      RoutePlan plan = Router.route(p.template(), p.values(), cluster.context());
      return verdict(plan, p.synthetic() ? null : keyOf(p.template(), p.values(), plan));
    } catch (SQLException e) {
      return refused(e);
    } catch (RuntimeException e) {
      return Verdict.refused(ShardexError.INTERNAL.id(), String.valueOf(e));
    }
  }

  private Verdict verdict(RoutePlan plan, Object key) {
    List<Integer> shards = plan.shards();
    String fanout = plan.fanout().name();
    if (plan.fanout() == Fanout.JOIN) {
      return new Verdict(Route.ALL, List.of(), null, null, fanout, null);
    }
    if (plan.fanout() == Fanout.HOLD || shards.size() <= 1) {
      return new Verdict(Route.ONE, shards, null, null, fanout, key);
    }
    return new Verdict(shards.size() >= cluster.shards() ? Route.ALL : Route.SEVERAL, shards, null, null, fanout, null);
  }

  private static Verdict refused(SQLException e) {
    ShardexError id = ShardexError.of(e);
    return Verdict.refused(id != null ? id.id() : "SQLSTATE " + e.getSQLState(), e.getMessage());
  }

  /** The shard key a one-shard statement of a SHARDED table names, for hot keys; null otherwise. */
  private Object keyOf(RouteTemplate t, Object[] values, RoutePlan plan) throws SQLException {
    if (plan.shards().size() != 1 || t.tables().isEmpty()) {
      return null;
    }
    String name = t.targetTable() != null ? t.targetTable().name() : t.tables().get(0).name();
    TableDef def = cluster.directory().table(name);
    if (def == null || def.kind() != TableKind.SHARDED) {
      return null;
    }
    ValueSource source = null;
    for (KeyPredicate k : t.keys()) {
      if (k.column().column().equalsIgnoreCase(def.keyColumn()) && k.values().size() == 1) {
        source = k.values().get(0);
      }
    }
    int at = t.insertColumns().indexOf(def.keyColumn());
    if (source == null && at >= 0 && t.insertRows().size() == 1) {
      source = t.insertRows().get(0).get(at);
    }
    Object v = source instanceof ValueSource.Param p && p.index() < values.length ? values[p.index()]
        : source instanceof ValueSource.Literal l ? l.value() : null;
    return v == null ? null : def.keySpace() + ":" + v;
  }
}
