package dev.shardex.frameworks.boot;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;

/** A user: table {@code author}, SHARDED by {@code user_id} (its id, assigned by the application). */
@Entity
public class Author {
  @Id
  private Long userId;
  private String name;
  private String countryCode;

  protected Author() {}

  public Author(Long userId, String name, String countryCode) {
    this.userId = userId;
    this.name = name;
    this.countryCode = countryCode;
  }

  public Long getUserId() {
    return userId;
  }

  public String getName() {
    return name;
  }

  public String getCountryCode() {
    return countryCode;
  }
}
