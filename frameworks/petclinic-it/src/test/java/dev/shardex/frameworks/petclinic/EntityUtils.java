package dev.shardex.frameworks.petclinic;

import java.util.Collection;

/** PetClinic's test helper: an entity of a collection by its id. */
final class EntityUtils {
  private EntityUtils() {}

  static <T extends BaseEntity> T getById(Collection<T> entities, Class<T> entityClass, int entityId) {
    for (T entity : entities) {
      if (entity.getId() == entityId && entityClass.isInstance(entity)) {
        return entity;
      }
    }
    throw new IllegalArgumentException("Entity not found: " + entityClass + " " + entityId);
  }
}
