package dev.shardex.frameworks.boot;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;

/** Reference data: table {@code country}, GLOBAL (a copy on every shard). */
@Entity
public class Country {
  @Id
  private String code;
  private String name;

  protected Country() {}

  public Country(String code, String name) {
    this.code = code;
    this.name = name;
  }

  public String getCode() {
    return code;
  }

  public String getName() {
    return name;
  }
}
