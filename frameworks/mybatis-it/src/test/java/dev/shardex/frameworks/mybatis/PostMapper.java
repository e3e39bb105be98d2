package dev.shardex.frameworks.mybatis;

import java.util.List;
import org.apache.ibatis.annotations.Param;

/** The mapper interface of PostMapper.xml. */
public interface PostMapper {
  int insert(Post post);

  List<Post> byUsers(@Param("userIds") List<Long> userIds);

  long countAll();

  List<String> countries();

  /** Fills the map's "id" with SELECT LAST_INSERT_ID() (a {@code <selectKey>}). */
  int insertEvent(java.util.Map<String, Object> event);

  Long eventId(@Param("userId") long userId, @Param("kind") String kind);
}
