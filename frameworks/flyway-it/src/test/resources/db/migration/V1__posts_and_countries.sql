-- Shardex's in-band declarations travel with the DDL.
/* shardex:sharded key=user_id */ CREATE TABLE posts (
  user_id BIGINT NOT NULL,
  post_id BIGINT NOT NULL,
  title VARCHAR(100) NOT NULL,
  PRIMARY KEY (user_id, post_id)
);

/* shardex:global */ CREATE TABLE countries (
  code CHAR(2) NOT NULL PRIMARY KEY,
  name VARCHAR(50) NOT NULL
);
