package dev.shardex.driver.sql;

/** A column as written: in which SELECT scope, with which qualifier (alias or table name, may be null). */
public record ColumnRef(int scope, String qualifier, String column) {}
