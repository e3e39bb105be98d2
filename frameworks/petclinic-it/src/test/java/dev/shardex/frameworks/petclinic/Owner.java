package dev.shardex.frameworks.petclinic;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.util.ArrayList;
import java.util.List;

/** As PetClinic maps it: pets through a unidirectional one-to-many on the pets' owner_id column. */
@Entity
@Table(name = "owners")
public class Owner extends Person {
  @Column(name = "address")
  private String address;

  @Column(name = "city")
  private String city;

  @Column(name = "telephone")
  private String telephone;

  @OneToMany(cascade = CascadeType.ALL, fetch = FetchType.EAGER)
  @JoinColumn(name = "owner_id")
  @OrderBy("name")
  private final List<Pet> pets = new ArrayList<>();

  public String getAddress() {
    return address;
  }

  public void setAddress(String address) {
    this.address = address;
  }

  public String getCity() {
    return city;
  }

  public void setCity(String city) {
    this.city = city;
  }

  public String getTelephone() {
    return telephone;
  }

  public void setTelephone(String telephone) {
    this.telephone = telephone;
  }

  public List<Pet> getPets() {
    return pets;
  }

  public void addPet(Pet pet) {
    if (pet.isNew()) {
      getPets().add(pet);
    }
  }

  public Pet getPet(String name) {
    for (Pet pet : getPets()) {
      if (pet.getName().equalsIgnoreCase(name)) {
        return pet;
      }
    }
    return null;
  }

  public Pet getPet(Integer id) {
    for (Pet pet : getPets()) {
      if (!pet.isNew() && pet.getId().equals(id)) {
        return pet;
      }
    }
    return null;
  }

  public void addVisit(Integer petId, Visit visit) {
    getPet(petId).addVisit(visit);
  }
}
