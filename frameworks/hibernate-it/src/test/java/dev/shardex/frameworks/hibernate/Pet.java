package dev.shardex.frameworks.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.LocalDate;
import org.hibernate.annotations.Comment;

/** A pet, SHARDED by its owner's id ({@code owner_id}, the join column Owner maps), so it lives with its owner. */
@Entity
@Table(name = "pets")
@Comment("shardex:sharded key=owner_id")
public class Pet {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;
  private String name;
  private LocalDate birthDate;

  protected Pet() {}

  public Pet(String name, LocalDate birthDate) {
    this.name = name;
    this.birthDate = birthDate;
  }

  public Long getId() {
    return id;
  }

  public String getName() {
    return name;
  }

  public LocalDate getBirthDate() {
    return birthDate;
  }
}
