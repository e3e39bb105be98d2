/**
 * Statement text to template: everything Shardex knows about a statement before it knows any value.
 *
 * <h2>What it is for</h2>
 * {@code TemplateCache} turns a text into a {@code RouteTemplate} once: prepared texts by identity,
 * plain texts through the one-pass literal scanner, so texts that differ only in literals share a
 * template. JSqlParser ({@code Analyzer}, {@code TemplateBuilder}) runs on a cache miss only.
 * {@code TemplateBuilder} has one method per statement kind (INSERT and REPLACE in
 * {@code InsertTemplates}); the SELECT structure is walked by {@code SelectWalker}, WHERE/ON/SET by
 * {@code ConjunctReader}, and what they find is gathered in {@code TemplateFacts}. The rewrites a
 * multi-step plan needs are cut here too, once per text and catalog version:
 * {@code MergeRewriter} (a merged read's shard text, one class per clause: {@code SelectListFold},
 * {@code GroupHaving}, {@code OrderKeys} over the shard-side select list {@code MergeColumns}),
 * {@code JoinSplitter} (a cross-shard join's driving and dependent statements),
 * {@code JoinAggregates} (a statement over joined rows given back to one shard),
 * {@code SubqueryPullOut} (IN, EXISTS and scalar subqueries run first; an EXISTS correlated by
 * equalities decorrelated by {@code CorrelatedExists}; {@code = ANY}, {@code <> ALL} and a
 * correlated IN in the WHERE's AND-ed terms read as IN, NOT IN and EXISTS by
 * {@code SubqueryForms}, which also pulls out {@code x > ALL (...)} and the like over exact numbers),
 * {@code GlobalOuterJoin} (a GLOBAL table's outer join with a SHARDED one,
 * run by one shard over the SHARDED rows).
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>A rewrite keeps what one server would answer, or refuses: a cut that cannot be exact throws
 *       its own {@code Refused} with the reason, which the caller names in SHX1206/SHX1207.
 *   <li>Parameters keep their order: texts cut from a statement carry which of its values each
 *       {@code ?} binds ({@code NumberedParameters}).
 *   <li>Every subquery is seen: a visitor that looks for subqueries extends {@code SubqueryVisitor},
 *       which enters {@code x op ANY/ALL (SELECT ...)} (JSqlParser's adapter does not), so routing
 *       never misses a table read inside one.
 *   <li>Nothing here reads a shard or the directory; what it needs of the catalog comes through an
 *       interface ({@code JoinSplitter.Catalog}).
 * </ul>
 *
 * <h2>What it may call</h2>
 * JSqlParser and the directory's vocabulary (errors, table definitions); no other driver package.
 */
package dev.shardex.driver.sql;
