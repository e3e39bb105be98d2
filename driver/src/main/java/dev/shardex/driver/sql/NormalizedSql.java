package dev.shardex.driver.sql;

import java.util.List;

/**
 * A plain statement's text with its literals taken out: {@code text} has a {@code ?} where each
 * literal stood, {@code literals} holds their values in order (Long, BigDecimal or String).
 * Statements that differ only in literals share {@code text}, so they share a route template.
 */
public record NormalizedSql(String text, List<Object> literals) {}
