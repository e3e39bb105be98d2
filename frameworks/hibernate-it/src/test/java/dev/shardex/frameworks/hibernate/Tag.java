package dev.shardex.frameworks.hibernate;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Comment;

/**
 * A tag with an id the application assigns, SHARDED by its owner and addressed by its id: with
 * assigned ids Hibernate batches its INSERTs (IDENTITY ids it cannot), so a flush of many tags is
 * one JDBC batch into a table with a lookup.
 */
@Entity
@Table(name = "tag")
@Comment("shardex:sharded key=owner_id lookup=id unique")
public class Tag {
  @Id
  private Long id;
  private String label;
  @Column(name = "owner_id", nullable = false)
  private Long ownerId;

  protected Tag() {}

  public Tag(Long id, Long ownerId, String label) {
    this.id = id;
    this.ownerId = ownerId;
    this.label = label;
  }

  public String getLabel() {
    return label;
  }

  public void setLabel(String label) {
    this.label = label;
  }
}
