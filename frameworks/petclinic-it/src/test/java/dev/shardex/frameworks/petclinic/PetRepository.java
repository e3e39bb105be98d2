package dev.shardex.frameworks.petclinic;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.transaction.annotation.Transactional;

/** Pets by their own id (not in PetClinic itself: how many apps change and remove a child entity). */
public interface PetRepository extends JpaRepository<Pet, Integer> {
  @Transactional
  @Modifying
  @Query("delete from Pet p where p.id = ?1")
  int deleteByIdOnly(Integer id);
}
