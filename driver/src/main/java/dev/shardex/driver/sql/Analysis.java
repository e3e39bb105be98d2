package dev.shardex.driver.sql;

/**
 * A template plus the values of one plain statement's literals (empty for prepared statements),
 * and the text that was analysed (the normalised text, whose ? markers the literals fill).
 */
public record Analysis(RouteTemplate template, Object[] literals, String text) {}
