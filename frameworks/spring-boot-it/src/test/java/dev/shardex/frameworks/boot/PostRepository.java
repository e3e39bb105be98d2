package dev.shardex.frameworks.boot;

import java.util.List;
import org.springframework.data.jpa.repository.JpaRepository;

public interface PostRepository extends JpaRepository<Post, PostId> {
  List<Post> findByUserIdOrderByPostId(Long userId);
}
