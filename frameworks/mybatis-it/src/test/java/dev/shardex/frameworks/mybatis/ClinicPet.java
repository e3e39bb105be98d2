package dev.shardex.frameworks.mybatis;

import java.time.LocalDate;

public class ClinicPet {
  private Integer id;
  private String name;
  private LocalDate birthDate;
  private Integer ownerId;

  public ClinicPet() {}

  public ClinicPet(String name, LocalDate birthDate, Integer ownerId) {
    this.name = name;
    this.birthDate = birthDate;
    this.ownerId = ownerId;
  }

  public Integer getId() {
    return id;
  }

  public void setId(Integer id) {
    this.id = id;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public LocalDate getBirthDate() {
    return birthDate;
  }

  public void setBirthDate(LocalDate birthDate) {
    this.birthDate = birthDate;
  }

  public Integer getOwnerId() {
    return ownerId;
  }

  public void setOwnerId(Integer ownerId) {
    this.ownerId = ownerId;
  }
}
