package dev.shardex.frameworks.mybatis;

import java.util.List;
import org.apache.ibatis.annotations.Param;

/** PetClinic's entities through a MyBatis XML mapper: every row found, changed and removed by its own id. */
public interface ClinicMapper {
  int insertOwner(ClinicOwner owner);

  int insertPet(ClinicPet pet);

  int insertVisit(ClinicVisit visit);

  ClinicPet pet(@Param("id") int id);

  ClinicVisit visit(@Param("id") int id);

  List<ClinicVisit> visitsOfPet(@Param("petId") int petId);

  int renamePet(@Param("id") int id, @Param("name") String name);

  int deletePet(@Param("id") int id);

  int deleteVisit(@Param("id") int id);
}
