package dev.shardex.frameworks.boot;

import java.io.Serializable;
import java.util.Objects;

/** The composite id of {@link Post}: the shard key first, then the post's number within its user. */
public class PostId implements Serializable {
  private static final long serialVersionUID = 1L;
  private Long userId;
  private Long postId;

  protected PostId() {}

  public PostId(Long userId, Long postId) {
    this.userId = userId;
    this.postId = postId;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PostId p && Objects.equals(userId, p.userId) && Objects.equals(postId, p.postId);
  }

  @Override
  public int hashCode() {
    return Objects.hash(userId, postId);
  }
}
