package dev.shardex.cli.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report opened in a real headless browser: Debian's Chromium ({@code apt-get install
 * chromium}), when this machine has it. It must load and render the page with no console message
 * (an error, a blocked resource) and keep every figure in the rendered DOM. Skipped, saying so,
 * where Chromium is not installed.
 */
class HtmlBrowserTest {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

  @TempDir
  Path dir;

  @Test
  void report_rendersInChromium_withNoConsoleMessage() throws Exception {
    assumeTrue(Files.isExecutable(CHROMIUM), "Chromium is not installed (apt-get install chromium)");
    Path log = Files.writeString(dir.resolve("general.log"), AnalyzeCommandTest.generalLog(3,
        "SELECT * FROM posts WHERE author_id = 1", "SELECT * FROM posts WHERE slug = 'a'", "UPDATE posts SET title = 'b'"));
    Path html = dir.resolve("report.html");
    AnalyzeCommandTest.Run run = AnalyzeCommandTest.analyze("--general", log.toString(), "--schema",
        Files.writeString(dir.resolve("s.sql"), AnalyzeCommandTest.SCHEMA).toString(), "--layout",
        Files.writeString(dir.resolve("l.txt"), "posts sharded key=author_id\n").toString(), "--html", html.toString());
    assertEquals(0, run.code(), run.err());
    Path dom = dir.resolve("dom.html");
    Path log2 = dir.resolve("chromium.log");
    Process p = new ProcessBuilder(CHROMIUM.toString(), "--headless=new", "--no-sandbox", "--disable-gpu",
        "--user-data-dir=" + dir.resolve("profile"), "--enable-logging=stderr", "--v=0", "--dump-dom", html.toUri().toString())
        .redirectOutput(dom.toFile()).redirectError(log2.toFile()).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium did not finish");
    assertEquals(0, p.exitValue(), Files.readString(log2));
    String rendered = Files.readString(dom);
    assertTrue(rendered.contains("data-fig=\"readiness.score\"") && rendered.contains("aria-label=\"routing mix\""), rendered);
    String console = Files.readString(log2).lines().filter(l -> l.contains("CONSOLE") || l.contains("Uncaught"))
        .reduce("", (a, b) -> a + b + "\n");
    assertEquals("", console, "the page logged to the console");
  }
}
