package dev.shardex.frameworks.petclinic;

import java.util.Collection;
import org.springframework.data.repository.Repository;

public interface VetRepository extends Repository<Vet, Integer> {
  Collection<Vet> findAll();
}
