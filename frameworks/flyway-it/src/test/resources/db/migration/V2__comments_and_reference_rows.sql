/* shardex:sharded key=user_id */ CREATE TABLE comments (
  user_id BIGINT NOT NULL,
  comment_id BIGINT NOT NULL,
  body VARCHAR(200) NOT NULL,
  PRIMARY KEY (user_id, comment_id)
);

-- Reference rows of a GLOBAL table: Shardex writes them to every shard.
INSERT INTO countries (code, name) VALUES ('BE', 'Belgium'), ('FR', 'France'), ('NL', 'Netherlands');
