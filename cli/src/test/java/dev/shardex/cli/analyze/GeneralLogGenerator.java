package dev.shardex.cli.analyze;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.function.LongFunction;

/**
 * Writes a blog-shaped general log for the README's throughput figure: N statements from 50
 * connections in MariaDB's format, authors Pareto-distributed (a few hot ones), a tenth of the
 * traffic in {@code autocommit=0} transactions of three statements. Its schema and layout are
 * {@code src/test/resources/analyze/blog-schema.sql} and {@code blog-layout.txt}.
 *
 * <pre>java -cp cli/target/test-classes:cli/target/classes:$(cat cli/target/shardex-cli.classpath) \
 *     dev.shardex.cli.analyze.GeneralLogGenerator 10000000 general.log</pre>
 */
public final class GeneralLogGenerator {
  private static final int[] WEIGHTS = {30, 20, 10, 10, 8, 6, 5, 4, 2, 5};
  private static final String[] SHAPES = {
      "SELECT post_id, title, created FROM posts WHERE author_id = %1$d ORDER BY created DESC LIMIT 10",
      "SELECT p.title, COUNT(cm.comment_id) AS comments FROM posts p LEFT JOIN comments cm ON cm.author_id = p.author_id"
          + " AND cm.post_id = p.post_id WHERE p.author_id = %1$d GROUP BY p.post_id, p.title, p.created"
          + " ORDER BY p.created DESC LIMIT 10",
      "INSERT INTO posts (author_id, title, body) VALUES (%1$d, 'title %1$d', 'some body text that is long enough')",
      "INSERT INTO comments (author_id, post_id, commenter_id, body) VALUES (%1$d, %2$d, %3$d, 'nice')",
      "UPDATE authors SET name = 'author %1$d' WHERE author_id = %1$d",
      "SELECT * FROM posts WHERE author_id IN (%1$d, %3$d, %4$d)",
      "SELECT * FROM authors WHERE name = 'author %1$d'",
      "SELECT COUNT(*) FROM posts WHERE created > '2026-11-01'",
      "UPDATE posts SET title = 'x' WHERE post_id = %1$d",
      "SELECT @@session.transaction_read_only"};

  private GeneralLogGenerator() {}

  public static void main(String[] args) throws IOException {
    long n = Long.parseLong(args[0]);
    Random random = new Random(7);
    LongFunction<String> statement = a -> String.format(SHAPES[pick(random)], a, a * 7, a + 1, a + 2);
    try (BufferedWriter out = Files.newBufferedWriter(Path.of(args[1]))) {
      out.write("/usr/sbin/mariadbd, Version: 10.11.5-MariaDB-log (MariaDB Server). started with:\n"
          + "Tcp port: 3306  Unix socket: /tmp/mysql.sock\nTime\t\t    Id Command\tArgument\n");
      for (long i = 0; i < n; ) {
        int connection = 10 + random.nextInt(50);
        long author = (long) (1 / Math.pow(1 - random.nextDouble(), 1 / 1.2)) % 1_000_000 + 1; // Pareto(1.2)
        boolean transaction = random.nextDouble() < 0.1;
        if (transaction) {
          line(out, connection, "SET autocommit=0");
        }
        for (int k = 0; k < (transaction ? 3 : 1); k++, i++) {
          line(out, connection, statement.apply(author));
        }
        if (transaction) {
          line(out, connection, "COMMIT");
          line(out, connection, "SET autocommit=1");
        }
      }
    }
  }

  private static int pick(Random random) {
    int r = random.nextInt(100);
    for (int i = 0; i < WEIGHTS.length; i++) {
      r -= WEIGHTS[i];
      if (r < 0) {
        return i;
      }
    }
    return 0;
  }

  private static void line(BufferedWriter out, int connection, String sql) throws IOException {
    out.write("\t\t" + String.format("%7d", connection) + " Query\t" + sql + "\n");
  }
}
