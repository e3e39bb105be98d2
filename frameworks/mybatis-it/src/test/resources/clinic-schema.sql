-- PetClinic's owners, pets and visits for the MyBatis mapper: ids alone as primary keys, each table
-- placed by its COMMENT, rows found by their own ids through lookups.
CREATE TABLE IF NOT EXISTS owners (
  id INT(4) UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  first_name VARCHAR(30),
  last_name VARCHAR(30)
) engine=InnoDB COMMENT='shardex:sharded key=id';
CREATE TABLE IF NOT EXISTS pets (
  id INT(4) UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(30),
  birth_date DATE,
  owner_id INT(4) UNSIGNED NOT NULL
) engine=InnoDB COMMENT='shardex:sharded key=owner_id lookup=id unique';
CREATE TABLE IF NOT EXISTS visits (
  id INT(4) UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  pet_id INT(4) UNSIGNED NOT NULL,
  visit_date DATE,
  description VARCHAR(255)
) engine=InnoDB COMMENT='shardex:sharded key=pet_id lookup=id unique';
INSERT IGNORE INTO owners VALUES (1, 'George', 'Franklin');
INSERT IGNORE INTO owners VALUES (2, 'Betty', 'Davis');
INSERT IGNORE INTO pets VALUES (1, 'Leo', '2000-09-07', 1);
INSERT IGNORE INTO pets VALUES (2, 'Basil', '2002-08-06', 2);
INSERT IGNORE INTO visits VALUES (1, 2, '2010-03-04', 'rabies shot');
