-- Declarations in the table's own COMMENT option: spring.sql.init strips /* ... */ comments.
CREATE TABLE IF NOT EXISTS author (
  user_id BIGINT NOT NULL PRIMARY KEY,
  name VARCHAR(50) NOT NULL,
  country_code CHAR(2) NOT NULL
) COMMENT='shardex:sharded key=user_id';

CREATE TABLE IF NOT EXISTS post (
  user_id BIGINT NOT NULL,
  post_id BIGINT NOT NULL,
  title VARCHAR(100) NOT NULL,
  PRIMARY KEY (user_id, post_id)
) COMMENT='shardex:sharded key=user_id';

CREATE TABLE IF NOT EXISTS country (
  code CHAR(2) NOT NULL PRIMARY KEY,
  name VARCHAR(50) NOT NULL
) COMMENT='shardex:global';
