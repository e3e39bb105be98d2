package dev.shardex.benchmarks;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The start-up measurement alone (no workloads, no ShardingSphere): a 4-shard sandbox with 100
 * users and {@code startup.tables} declared tables (10,000 by default), then {@code startup.runs}
 * fresh JVMs ({@link FirstConnection}: the driver's classpath only, extra JVM options from
 * {@code bench.freshJvmArgs}), each printing its first connection, its first row and its CPU time;
 * then the medians and the spread.
 *
 * <p>{@code startup.appcds=true} also measures an AppCDS archive, the README's recipe: the class
 * path's directories are packed into jars (CDS archives classes from jars only), one training run
 * writes the archive ({@code -XX:ArchiveClassesAtExit}), and the runs alternate without and with
 * it ({@code -XX:SharedArchiveFile}), so both see the same machine load.
 *
 * <p>{@code startup.hold=FILE}: afterwards, writes the Shardex URL and the fresh JVM's class path
 * to FILE (two lines) and keeps the sandbox up until killed, for runs by hand:
 * {@code java -cp "$(sed -n 2p FILE)" dev.shardex.benchmarks.FirstConnection "$(sed -n 1p FILE)" 7}.
 *
 * <p>{@code mvn -o -q -DskipTests -Pstartup -pl benchmarks -am verify -Dbench.jvm="-Dstartup.appcds=true"}
 */
public final class StartupRun {
  private static final String[] FIGURES = {"connect", "first row", "process CPU", "main-thread CPU"};

  private StartupRun() {}

  public static void main(String[] args) throws Exception {
    int tables = Integer.getInteger("startup.tables", 10_000);
    int runs = Integer.getInteger("startup.runs", 7);
    boolean appCds = Boolean.getBoolean("startup.appcds");
    String hold = System.getProperty("startup.hold", "");
    try (BenchCluster cluster = BenchCluster.start("startup", 4, 100, 1)) {
      cluster.placeUsers(2);
      cluster.loadRows();
      cluster.readOwners();
      long declareMs = new StartupBenchmark(cluster).declareUpTo(tables);
      System.out.printf(Locale.ROOT, "%d tables declared in %d ms; Java %s, %d cores%n", tables, declareMs,
          System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
      String url = cluster.shardexUrl("startup-cold");
      String extra = System.getProperty("bench.freshJvmArgs", "");
      List<String> options = extra.isBlank() ? List.of() : List.of(extra.trim().split("\\s+"));
      Map<String, List<String>> variants = new LinkedHashMap<>();
      variants.put("plain", options);
      String classPath = StartupBenchmark.driverOnlyClassPath();
      if (appCds) {
        Path dir = Files.createTempDirectory("shardex-appcds");
        classPath = jarred(classPath, dir);
        Path archive = dir.resolve("app.jsa");
        List<String> training = new ArrayList<>(options);
        training.add("-XX:ArchiveClassesAtExit=" + archive);
        StartupBenchmark.inFreshJvm(url, 7, training, classPath);
        List<String> shared = new ArrayList<>(options);
        shared.add("-XX:SharedArchiveFile=" + archive);
        variants.put("AppCDS", shared);
        System.out.printf("AppCDS archive %s (%d MB), class path of jars %s%n", archive, Files.size(archive) >> 20, classPath);
      }
      Map<String, double[][]> figures = new LinkedHashMap<>();
      for (String v : variants.keySet()) {
        figures.put(v, new double[FIGURES.length][runs]);
      }
      for (int i = 0; i < runs; i++) {
        for (Map.Entry<String, List<String>> v : variants.entrySet()) {
          double[] t = StartupBenchmark.inFreshJvm(url, 7, v.getValue(), classPath);
          for (int f = 0; f < FIGURES.length && f < t.length; f++) {
            figures.get(v.getKey())[f][i] = t[f];
          }
          System.out.printf(Locale.ROOT, "fresh JVM %d %s: connect %.1f ms, first row %.1f ms%n", i + 1, v.getKey(), t[0], t[1]);
        }
      }
      for (Map.Entry<String, double[][]> v : figures.entrySet()) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "fresh JVM, %s, %d runs:", v.getKey(), runs));
        for (int f = 0; f < FIGURES.length; f++) {
          double[] x = v.getValue()[f].clone();
          Arrays.sort(x);
          line.append(String.format(Locale.ROOT, " %s %.0f ms (%.0f-%.0f)%s", FIGURES[f], x[runs / 2], x[0], x[runs - 1],
              f < FIGURES.length - 1 ? "," : ""));
        }
        System.out.println(line);
      }
      if (!hold.isEmpty()) {
        Files.writeString(Path.of(hold), url + "\n" + classPath + "\n", StandardCharsets.UTF_8);
        System.out.println("holding the sandbox; URL and classpath in " + hold);
        Thread.sleep(Long.MAX_VALUE);
      }
    } finally {
      dev.shardex.driver.ShardexDriver.shutdown();
    }
    System.exit(0);
  }

  /** The class path with each directory packed into a jar in {@code dir} (CDS archives classes from jars only). */
  private static String jarred(String classPath, Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    int n = 0;
    for (String entry : classPath.split(File.pathSeparator)) {
      Path p = Path.of(entry).toAbsolutePath();
      if (!Files.isDirectory(p)) {
        out.add(entry);
        continue;
      }
      Path jar = dir.resolve("classes-" + n++ + ".jar");
      try (OutputStream file = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(file);
          Stream<Path> files = Files.walk(p)) {
        for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
          zip.putNextEntry(new JarEntry(p.relativize(f).toString().replace(File.separatorChar, '/')));
          Files.copy(f, zip);
          zip.closeEntry();
        }
      }
      out.add(jar.toString());
    }
    return String.join(File.pathSeparator, out);
  }
}
