package dev.shardex.frameworks.mybatis;

import java.util.List;
import org.apache.ibatis.annotations.Param;

/** The mapper interface of PostMapper.xml. */
public interface PostMapper {
  int insert(Post post);

  List<Post> byUsers(@Param("userIds") List<Long> userIds);

  long countAll();

  List<String> countries();
}
