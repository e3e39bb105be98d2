package dev.shardex.frameworks.hibernate;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Comment;

/** An account, SHARDED by its id: Hibernate's schema export writes the declaration as the table's COMMENT. */
@Entity
@Table(name = "account")
@Comment("shardex:sharded key=user_id")
public class Account {
  @Id
  @Column(name = "user_id")
  private Long userId;
  private String name;
  private String currency;

  protected Account() {}

  public Account(Long userId, String name, String currency) {
    this.userId = userId;
    this.name = name;
    this.currency = currency;
  }

  public Long getUserId() {
    return userId;
  }

  public String getName() {
    return name;
  }

  public String getCurrency() {
    return currency;
  }
}
