package dev.shardex.frameworks.hibernate;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Comment;

/**
 * A pet, SHARDED by its owner but addressed by its own id (as Spring PetClinic's): {@code lookup=id
 * unique} lets em.find, dirty-checking updates and em.remove by id go to the owner's shard.
 */
@Entity
@Table(name = "pet")
@Comment("shardex:sharded key=owner_id lookup=id unique")
public class PetById {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;
  private String name;
  @Column(name = "owner_id", nullable = false)
  private Long ownerId;

  protected PetById() {}

  public PetById(Long ownerId, String name) {
    this.ownerId = ownerId;
    this.name = name;
  }

  public Long getId() {
    return id;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public Long getOwnerId() {
    return ownerId;
  }
}
