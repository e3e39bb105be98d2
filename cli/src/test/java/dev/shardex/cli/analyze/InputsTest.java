package dev.shardex.cli.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The readers of each input format, on texts as the servers and tools write them. */
class InputsTest {
  @TempDir
  Path dir;

  private List<Logged> read(StatementSource s) throws Exception {
    List<Logged> all = new ArrayList<>();
    s.read(all::add, (done, total) -> { });
    return all;
  }

  @Test
  void generalLog_mariadbAndMysqlFormats_multiLineAndQuit() throws Exception {
    Path log = Files.writeString(dir.resolve("general.log"), """
        /usr/sbin/mariadbd, Version: 10.11.5-MariaDB-log (MariaDB Server). started with:
        Tcp port: 3306  Unix socket: /tmp/mysql.sock
        Time		    Id Command	Argument
        231127 16:30:12	      3 Connect	app@localhost on blog using TCP/IP
                  3 Query	SELECT *
        FROM posts
        WHERE author_id = 7
                  3 Prepare	SELECT * FROM posts WHERE author_id = ?
                  3 Execute	SELECT * FROM posts WHERE author_id = 8
        2023-11-27T16:30:12.123456Z	   12 Query	UPDATE posts SET title = 'a' WHERE author_id = 9
                  3 Quit
        """);
    List<Logged> s = read(new GeneralLog(log));
    assertEquals(4, s.size(), s.toString());
    assertEquals("SELECT *\nFROM posts\nWHERE author_id = 7", s.get(0).sql());
    assertEquals(3, s.get(0).connection());
    assertEquals("SELECT * FROM posts WHERE author_id = 8", s.get(1).sql());
    assertEquals(12, s.get(2).connection());
    assertTrue(s.get(3).isQuit());
    assertFalse(s.get(0).timed());
  }

  @Test
  void slowLog_headersGiveTimeAndConnection_serverLinesDropped() throws Exception {
    Path log = Files.writeString(dir.resolve("slow.log"), """
        /usr/sbin/mariadbd, Version: 10.11.5-MariaDB-log (MariaDB Server). started with:
        Tcp port: 3306  Unix socket: /tmp/mysql.sock
        Time                Id Command    Argument
        # Time: 231127 16:30:12
        # User@Host: app[app] @ localhost [127.0.0.1]
        # Thread_id: 8  Schema: blog  QC_hit: No
        # Query_time: 0.000213  Lock_time: 0.000061  Rows_sent: 1  Rows_examined: 1
        # Rows_affected: 0  Bytes_sent: 120
        use blog;
        SET timestamp=1701102612;
        SELECT * FROM posts
        WHERE author_id = 7;
        # User@Host: root[root] @ localhost []  Id:    15
        # Query_time: 1.5  Lock_time: 0.0 Rows_sent: 0  Rows_examined: 0
        SET timestamp=1701102613;
        DELETE FROM posts WHERE title = 'x';
        """);
    List<Logged> s = read(new SlowLog(log));
    assertEquals(2, s.size(), s.toString());
    assertEquals("SELECT * FROM posts\nWHERE author_id = 7", s.get(0).sql());
    assertEquals(8, s.get(0).connection());
    assertEquals(0.000213, s.get(0).seconds(), 1e-9);
    assertEquals(15, s.get(1).connection());
    assertEquals(1.5, s.get(1).seconds(), 1e-9);
  }

  @Test
  void ptQueryDigest_exampleWins_fingerprintOtherwise() throws Exception {
    Path json = Files.writeString(dir.resolve("ptqd.json"), """
        {"classes": [
          {"fingerprint": "select * from posts where author_id = ?", "query_count": 42,
           "metrics": {"Query_time": {"sum": "0.420000", "avg": "0.01"}},
           "example": {"query": "SELECT * FROM posts WHERE author_id = 7", "ts": "2023-11-27"}},
          {"fingerprint": "select * from posts where author_id in(?+)", "query_count": 5}
        ], "global": {}}
        """);
    List<Logged> s = read(new PtQueryDigest(json));
    assertEquals(2, s.size());
    assertEquals("SELECT * FROM posts WHERE author_id = 7", s.get(0).sql());
    assertEquals(42, s.get(0).count());
    assertEquals(0.42, s.get(0).seconds(), 1e-9);
    assertFalse(s.get(0).normalised());
    assertTrue(s.get(1).normalised());
    assertEquals(5, s.get(1).count());
  }

  @Test
  void digestText_listsAndRowsGetMarkers_truncationSeen() {
    assertEquals("SELECT * FROM `posts` WHERE `author_id` IN (?, ?, ?, ?)",
        DigestText.routable("SELECT * FROM `posts` WHERE `author_id` IN (...)"));
    assertEquals("select * from posts where author_id IN (?, ?, ?, ?)",
        DigestText.routable("select * from posts where author_id in(?+)"));
    assertEquals("INSERT INTO `posts` ( `author_id` , `title` ) VALUES (?, ?) ",
        DigestText.routable("INSERT INTO `posts` ( `author_id` , `title` ) VALUES (...) /* , ... */"));
    assertEquals("SELECT @@SESSION.auto_increment_increment AS `a` , @@sql_mode",
        DigestText.routable("SELECT @@SESSION . `auto_increment_increment` AS `a` , @@`sql_mode`"));
    assertTrue(DigestText.truncated("SELECT `a` , `b` , `c` FROM `t` WHERE `x` = ? AND ..."));
    assertFalse(DigestText.truncated("SELECT * FROM `t` WHERE `x` IN (...)"));
  }

  @Test
  void transactionControl_readFromFirstWords() {
    assertEquals(Transactions.Control.BEGIN, Transactions.Control.of("  start   transaction read only"));
    assertEquals(Transactions.Control.BEGIN, Transactions.Control.of("BEGIN"));
    assertEquals(Transactions.Control.END, Transactions.Control.of("commit"));
    assertEquals(Transactions.Control.NONE, Transactions.Control.of("ROLLBACK TO SAVEPOINT a"));
    assertEquals(Transactions.Control.AUTOCOMMIT_OFF, Transactions.Control.of("SET autocommit=0"));
    assertEquals(Transactions.Control.AUTOCOMMIT_ON, Transactions.Control.of("set @@session.autocommit = 1"));
    assertEquals(Transactions.Control.NONE, Transactions.Control.of("SELECT 1"));
  }

  @Test
  void schemaDump_keepsCreateTablesWithTheirDeclarations() throws Exception {
    Path dump = Files.writeString(dir.resolve("dump.sql"), """
        -- MySQL dump 10.13
        /*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
        DROP TABLE IF EXISTS `posts`;
        CREATE TABLE `posts` (
          `id` bigint NOT NULL AUTO_INCREMENT,
          `title` varchar(10) DEFAULT 'a;b',
          PRIMARY KEY (`id`)
        ) ENGINE=InnoDB COMMENT='shardex:sharded key=id';
        DELIMITER ;;
        CREATE TRIGGER t BEFORE INSERT ON posts FOR EACH ROW BEGIN SET NEW.title = 'x'; END ;;
        DELIMITER ;
        /* shardex:global */ CREATE TABLE countries (code char(2) PRIMARY KEY);
        """);
    List<String> tables = SchemaDump.createTables(dump);
    assertEquals(2, tables.size(), tables.toString());
    assertTrue(tables.get(0).endsWith("COMMENT='shardex:sharded key=id'"));
    assertEquals("SHARDED", Catalog.declarations(tables).tables().get("posts").kind().name());
    assertEquals("GLOBAL", Catalog.declarations(tables).tables().get("countries").kind().name());
  }
}
