package dev.shardex.driver.sql;

/** {@code a.x = b.y} AND-ed into a WHERE or ON clause: the join equalities that co-locate rows. */
public record ColumnLink(ColumnRef left, ColumnRef right) {}
