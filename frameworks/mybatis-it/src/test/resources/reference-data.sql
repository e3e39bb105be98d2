-- Reference rows for a GLOBAL table: Shardex writes them to every shard.
INSERT INTO countries (code, name) VALUES ('BE', 'Belgium'), ('FR', 'France'), ('NL', 'Netherlands');
