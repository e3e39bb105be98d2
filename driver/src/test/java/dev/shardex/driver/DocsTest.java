package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README is the front page and the reference lives in docs/: every relative link of either
 * (a page, a picture, a heading of a page) resolves, and every page of docs/ is reachable from the
 * README's list.
 */
class DocsTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern LINK = Pattern.compile("!?\\[[^\\]\\n]*\\]\\(([^)\\s]+)\\)");

  static List<Path> pages() throws Exception {
    List<Path> pages = new ArrayList<>();
    pages.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  @Test
  void everyRelativeLinkResolvesToAFileAndHeading() throws Exception {
    List<String> broken = new ArrayList<>();
    for (Path page : pages()) {
      Matcher m = LINK.matcher(withoutCode(Files.readString(page)));
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("[a-z]+:.*")) {
          continue; // http:, https:, mailto:
        }
        int hash = target.indexOf('#');
        Path file = hash == 0 ? page : page.getParent().resolve(hash < 0 ? target : target.substring(0, hash));
        if (!Files.exists(file)) {
          broken.add(page.getFileName() + ": " + target + " (no such file)");
        } else if (hash >= 0 && !anchors(file).contains(target.substring(hash + 1))) {
          broken.add(page.getFileName() + ": " + target + " (no such heading in " + file.getFileName() + ")");
        }
      }
    }
    assertEquals(List.of(), broken);
  }

  @Test
  void everyDocsPageIsListedInTheReadme() throws Exception {
    String readme = Files.readString(ROOT.resolve("README.md"));
    for (Path page : pages().subList(1, pages().size())) {
      String name = page.getFileName().toString();
      assertTrue(readme.contains("(docs/" + name) || Files.readString(ROOT.resolve("docs")
          .resolve(linkedFrom(name))).contains("(" + name), "no link reaches docs/" + name);
    }
  }

  /** The page a sub-page (observability-guide.md) hangs from: its name before the last '-'. */
  private static String linkedFrom(String name) {
    int dash = name.lastIndexOf('-');
    return dash < 0 ? name : name.substring(0, dash) + ".md";
  }

  /** GitHub's anchors: a heading lower-cased, punctuation dropped, spaces as '-'. */
  static List<String> anchors(Path file) throws Exception {
    List<String> out = new ArrayList<>();
    for (String line : withoutCode(Files.readString(file)).split("\n")) {
      if (line.matches("#{1,6} .*")) {
        String h = line.replaceFirst("#+ ", "").trim().toLowerCase(Locale.ROOT);
        out.add(h.replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-'));
      }
    }
    return out;
  }

  /** The text without fenced code blocks (a '# comment' in a shell block is no heading). */
  static String withoutCode(String text) {
    StringBuilder out = new StringBuilder();
    boolean fence = false;
    for (String line : text.split("\n", -1)) {
      if (line.startsWith("```")) {
        fence = !fence;
        continue;
      }
      if (!fence) {
        out.append(line).append('\n');
      }
    }
    return out.toString();
  }
}
