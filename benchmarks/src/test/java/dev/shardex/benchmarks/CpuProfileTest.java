package dev.shardex.benchmarks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Collapsed stacks of CallerCpu's measured blocks, split by contender and into Shardex's own share. */
class CpuProfileTest {
  private static final String BLOCK = "[main tid=1];dev/shardex/benchmarks/CallerCpu.block;dev/shardex/benchmarks/Session.pointSelect;";

  @Test
  void read_splitsContendersAndShardexOwnTime(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("p.col");
    Files.writeString(file, String.join("\n",
        BLOCK + "com/mysql/cj/jdbc/ClientPreparedStatement.execute 40",
        BLOCK + "dev/shardex/driver/jdbc/Pipeline.run;com/mysql/cj/jdbc/ClientPreparedStatement.execute 40",
        BLOCK + "dev/shardex/driver/jdbc/Pipeline.run;com/zaxxer/hikari/pool/HikariPool.getConnection 6",
        BLOCK + "dev/shardex/driver/jdbc/Pipeline.run;dev/shardex/driver/route/KeyRoute.plan 4",
        "[other tid=2];dev/shardex/driver/jdbc/Pipeline.run 99",
        "[main tid=1];dev/shardex/benchmarks/CallerCpu.primeKeyCache;dev/shardex/driver/jdbc/Pipeline.run 99") + "\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CpuProfile.read(file).print(new PrintStream(out, true, StandardCharsets.UTF_8), 1000); // 250 µs per sample
    String s = out.toString(StandardCharsets.UTF_8);
    assertTrue(s.contains("direct 10.00 us/op, Shardex 12.50 us/op, of which Shardex's own (outside Connector/J) 2.50 us/op"), s);
    assertTrue(s.contains("2.500 us/op  dev.shardex.driver.jdbc.Pipeline.run"), s);
    assertTrue(s.contains("1.000 us/op  dev.shardex.driver.route.KeyRoute.plan"), s);
  }
}
