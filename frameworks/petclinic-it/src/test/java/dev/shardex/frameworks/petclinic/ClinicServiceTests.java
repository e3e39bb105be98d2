package dev.shardex.frameworks.petclinic;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.Collection;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.jdbc.AutoConfigureTestDatabase;
import org.springframework.boot.test.autoconfigure.jdbc.AutoConfigureTestDatabase.Replace;
import org.springframework.boot.test.autoconfigure.orm.jpa.DataJpaTest;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.transaction.annotation.Transactional;

/**
 * Spring PetClinic's database tests (ClinicServiceTests) as PetClinic writes them: @DataJpaTest, each test in a
 * transaction rolled back at its end, against the configured database (here the jdbc:shardex: URL).
 */
@DataJpaTest
@AutoConfigureTestDatabase(replace = Replace.NONE)
class ClinicServiceTests {
  @Autowired OwnerRepository owners;
  @Autowired VetRepository vets;
  Pageable pageable;

  @Test
  void shouldFindOwnersByLastName() {
    Page<Owner> owners = this.owners.findByLastNameStartingWith("Davis", pageable);
    assertThat(owners).hasSize(2);
    owners = this.owners.findByLastNameStartingWith("Daviss", pageable);
    assertThat(owners).isEmpty();
  }

  @Test
  void shouldFindSingleOwnerWithPet() {
    Optional<Owner> optionalOwner = this.owners.findById(1);
    assertThat(optionalOwner).isPresent();
    Owner owner = optionalOwner.get();
    assertThat(owner.getLastName()).startsWith("Franklin");
    assertThat(owner.getPets()).hasSize(1);
    assertThat(owner.getPets().get(0).getType()).isNotNull();
    assertThat(owner.getPets().get(0).getType().getName()).isEqualTo("cat");
  }

  @Test
  @Transactional
  void shouldInsertOwner() {
    Page<Owner> owners = this.owners.findByLastNameStartingWith("Schultz", pageable);
    int found = (int) owners.getTotalElements();
    Owner owner = new Owner();
    owner.setFirstName("Sam");
    owner.setLastName("Schultz");
    owner.setAddress("4, Evans Street");
    owner.setCity("Wollongong");
    owner.setTelephone("4444444444");
    this.owners.save(owner);
    assertThat(owner.getId()).isNotZero();
    owners = this.owners.findByLastNameStartingWith("Schultz", pageable);
    assertThat(owners.getTotalElements()).isEqualTo(found + 1);
  }

  @Test
  @Transactional
  void shouldUpdateOwner() {
    Owner owner = this.owners.findById(1).get();
    String newLastName = owner.getLastName() + "X";
    owner.setLastName(newLastName);
    this.owners.save(owner);
    owner = this.owners.findById(1).get();
    assertThat(owner.getLastName()).isEqualTo(newLastName);
  }

  @Test
  void shouldFindAllPetTypes() {
    Collection<PetType> petTypes = this.owners.findPetTypes();
    assertThat(EntityUtils.getById(petTypes, PetType.class, 1).getName()).isEqualTo("cat");
    assertThat(EntityUtils.getById(petTypes, PetType.class, 4).getName()).isEqualTo("snake");
  }

  @Test
  @Transactional
  void shouldInsertPetIntoDatabaseAndGenerateId() {
    Owner owner6 = this.owners.findById(6).get();
    int found = owner6.getPets().size();
    Pet pet = new Pet();
    pet.setName("bowser");
    Collection<PetType> types = this.owners.findPetTypes();
    pet.setType(EntityUtils.getById(types, PetType.class, 2));
    pet.setBirthDate(LocalDate.now());
    owner6.addPet(pet);
    assertThat(owner6.getPets()).hasSize(found + 1);
    this.owners.save(owner6);
    owner6 = this.owners.findById(6).get();
    assertThat(owner6.getPets()).hasSize(found + 1);
    pet = owner6.getPet("bowser");
    assertThat(pet.getId()).isNotNull();
  }

  @Test
  @Transactional
  void shouldUpdatePetName() {
    Owner owner6 = this.owners.findById(6).get();
    Pet pet7 = owner6.getPet(7);
    String newName = pet7.getName() + "X";
    pet7.setName(newName);
    this.owners.save(owner6);
    owner6 = this.owners.findById(6).get();
    assertThat(owner6.getPet(7).getName()).isEqualTo(newName);
  }

  @Test
  void shouldFindVets() {
    Collection<Vet> vets = this.vets.findAll();
    Vet vet = EntityUtils.getById(vets, Vet.class, 3);
    assertThat(vet.getLastName()).isEqualTo("Douglas");
    assertThat(vet.getNrOfSpecialties()).isEqualTo(2);
    assertThat(vet.getSpecialties().get(0).getName()).isEqualTo("dentistry");
    assertThat(vet.getSpecialties().get(1).getName()).isEqualTo("surgery");
  }

  @Test
  @Transactional
  void shouldAddNewVisitForPet() {
    Owner owner6 = this.owners.findById(6).get();
    Pet pet7 = owner6.getPet(7);
    int found = pet7.getVisits().size();
    Visit visit = new Visit();
    visit.setDescription("test");
    owner6.addVisit(pet7.getId(), visit);
    this.owners.save(owner6);
    assertThat(pet7.getVisits()).hasSize(found + 1).allMatch(value -> value.getId() != null);
  }

  @Test
  void shouldFindVisitsByPetId() {
    Owner owner6 = this.owners.findById(6).get();
    Collection<Visit> visits = owner6.getPet(7).getVisits();
    assertThat(visits).hasSize(2).element(0).extracting(Visit::getDate).isNotNull();
  }
}
