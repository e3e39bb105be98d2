package dev.shardex.frameworks.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Comment;

/** Reference data, GLOBAL: a copy on every shard. */
@Entity
@Table(name = "currency")
@Comment("shardex:global")
public class Currency {
  @Id
  private String code;
  private String name;

  protected Currency() {}

  public Currency(String code, String name) {
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
