INSERT IGNORE INTO country (code, name) VALUES ('FR', 'France'), ('JP', 'Japan'), ('BR', 'Brazil');
