package dev.shardex.frameworks.boot;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;

/** A post: table {@code post}, SHARDED by {@code user_id}, with a composite id (Hibernate loads it by row-value IN). */
@Entity
@IdClass(PostId.class)
public class Post {
  @Id
  private Long userId;
  @Id
  private Long postId;
  private String title;

  protected Post() {}

  public Post(Long userId, Long postId, String title) {
    this.userId = userId;
    this.postId = postId;
    this.title = title;
  }

  public Long getUserId() {
    return userId;
  }

  public Long getPostId() {
    return postId;
  }

  public String getTitle() {
    return title;
  }
}
