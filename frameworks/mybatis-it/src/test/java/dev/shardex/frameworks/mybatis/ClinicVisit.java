package dev.shardex.frameworks.mybatis;

import java.time.LocalDate;

public class ClinicVisit {
  private Integer id;
  private Integer petId;
  private LocalDate visitDate;
  private String description;

  public ClinicVisit() {}

  public ClinicVisit(Integer petId, LocalDate visitDate, String description) {
    this.petId = petId;
    this.visitDate = visitDate;
    this.description = description;
  }

  public Integer getId() {
    return id;
  }

  public void setId(Integer id) {
    this.id = id;
  }

  public Integer getPetId() {
    return petId;
  }

  public void setPetId(Integer petId) {
    this.petId = petId;
  }

  public LocalDate getVisitDate() {
    return visitDate;
  }

  public void setVisitDate(LocalDate visitDate) {
    this.visitDate = visitDate;
  }

  public String getDescription() {
    return description;
  }

  public void setDescription(String description) {
    this.description = description;
  }
}
