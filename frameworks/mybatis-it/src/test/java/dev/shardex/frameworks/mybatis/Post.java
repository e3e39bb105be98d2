package dev.shardex.frameworks.mybatis;

/** A row of posts, as MyBatis maps it (mapUnderscoreToCamelCase). */
public class Post {
  private long userId;
  private long postId;
  private String title;

  public Post() {}

  public Post(long userId, long postId, String title) {
    this.userId = userId;
    this.postId = postId;
    this.title = title;
  }

  public long getUserId() {
    return userId;
  }

  public void setUserId(long userId) {
    this.userId = userId;
  }

  public long getPostId() {
    return postId;
  }

  public void setPostId(long postId) {
    this.postId = postId;
  }

  public String getTitle() {
    return title;
  }

  public void setTitle(String title) {
    this.title = title;
  }

  @Override
  public String toString() {
    return userId + "/" + postId + ":" + title;
  }
}
