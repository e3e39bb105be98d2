package dev.shardex.frameworks.hibernate;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OneToMany;
import jakarta.persistence.Table;
import java.util.ArrayList;
import java.util.List;
import org.hibernate.annotations.Comment;

/**
 * An owner, SHARDED by its IDENTITY id (Shardex fills it from its sequence), with a unidirectional
 * one-to-many to its pets through the join column {@code owner_id}, as Hibernate's documentation maps
 * it: Hibernate inserts each pet without {@code owner_id}, then sets it with an UPDATE.
 */
@Entity
@Table(name = "owners")
@Comment("shardex:sharded key=id")
public class Owner {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;
  private String name;

  @OneToMany(cascade = CascadeType.ALL, orphanRemoval = true)
  @JoinColumn(name = "owner_id")
  private List<Pet> pets = new ArrayList<>();

  protected Owner() {}

  public Owner(String name) {
    this.name = name;
  }

  public Long getId() {
    return id;
  }

  public String getName() {
    return name;
  }

  public List<Pet> getPets() {
    return pets;
  }
}
