package dev.shardex.driver.sql;

/** A template plus the values of one plain statement's literals (empty for prepared statements). */
public record Analysis(RouteTemplate template, Object[] literals) {}
