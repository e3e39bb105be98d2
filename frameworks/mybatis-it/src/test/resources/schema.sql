-- The application's schema, run with MyBatis's ScriptRunner. The comment before each CREATE TABLE
-- is Shardex's in-band declaration.
/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS posts (
  user_id BIGINT NOT NULL,
  post_id BIGINT NOT NULL,
  title VARCHAR(100) NOT NULL,
  PRIMARY KEY (user_id, post_id)
);
/* shardex:global */ CREATE TABLE IF NOT EXISTS countries (
  code CHAR(2) NOT NULL PRIMARY KEY,
  name VARCHAR(50) NOT NULL
);
/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS events (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  user_id BIGINT NOT NULL,
  kind VARCHAR(20) NOT NULL
);
