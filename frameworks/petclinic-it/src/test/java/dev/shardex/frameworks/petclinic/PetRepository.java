package dev.shardex.frameworks.petclinic;

import org.springframework.data.jpa.repository.JpaRepository;

/** Pets by their own id (not in PetClinic itself: how many apps find, update and delete a child entity). */
public interface PetRepository extends JpaRepository<Pet, Integer> {}
