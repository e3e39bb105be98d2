package dev.shardex.driver.sql;

import java.util.List;

/** {@code column = v} or {@code column IN (v1, v2, ...)} AND-ed into a WHERE or ON clause. */
public record KeyPredicate(ColumnRef column, List<ValueSource> values) {}
