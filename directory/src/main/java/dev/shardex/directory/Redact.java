package dev.shardex.directory;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Strips secrets from URLs and messages before they reach a log line or an exception. */
public final class Redact {
  /** A password option runs to the next '&' (a ';' or ',' may be part of the password), or the end. */
  private static final Pattern SECRET =
      Pattern.compile("((?:password|pwd|passwd|secret)[0-9]*=)[^&\\s]*", Pattern.CASE_INSENSITIVE);
  /** user:password@ after "//", up to the last '@' before the query (a password may hold '@' or '/'). */
  private static final Pattern USERINFO = Pattern.compile("//([^/@:?#\\s]*):[^?#\\s]*@");
  private static final Pattern USER_ONLY = Pattern.compile("//([^/@:?#\\s]+)@");

  private Redact() {}

  public static String url(String url) {
    if (url == null) {
      return null;
    }
    return USERINFO.matcher(SECRET.matcher(url).replaceAll("$1***")).replaceAll("//$1:***@");
  }

  /** Removes a known password (as written and percent-encoded), wherever a layer below may have echoed it, then URL secrets. */
  public static String text(String text, String password) {
    if (text == null) {
      return null;
    }
    String out = text;
    if (password != null && !password.isEmpty()) {
      out = out.replace(password, "***");
      out = out.replace(URLEncoder.encode(password, StandardCharsets.UTF_8), "***");
      out = out.replace(URLEncoder.encode(password, StandardCharsets.UTF_8).replace("+", "%20"), "***");
    }
    return url(out);
  }

  /** A JDBC URL split into the URL without credentials and the user and password it carried (null if none). */
  public record Credentials(String url, String user, String password) {}

  /**
   * Takes {@code user:password@} and {@code user=} / {@code password=} options out of a JDBC URL,
   * decoded as Connector/J decodes them, so a pool can be handed a URL without a secret (HikariCP logs its URL at
   * DEBUG) and the credentials as properties.
   */
  public static Credentials credentials(String url) {
    if (url == null) {
      return new Credentials(null, null, null);
    }
    String user = null;
    String password = null;
    String rest = url;
    Matcher m = USERINFO.matcher(rest);
    if (m.find()) {
      String info = rest.substring(m.start() + 2, m.end() - 1);
      int colon = info.indexOf(':');
      user = decode(info.substring(0, colon));
      password = decode(info.substring(colon + 1));
      rest = rest.substring(0, m.start()) + "//" + rest.substring(m.end());
    } else if ((m = USER_ONLY.matcher(rest)).find()) {
      user = decode(m.group(1));
      rest = rest.substring(0, m.start()) + "//" + rest.substring(m.end());
    }
    int query = rest.indexOf('?');
    if (query >= 0) {
      java.util.List<String> kept = new java.util.ArrayList<>();
      for (String pair : rest.substring(query + 1).split("&")) {
        int eq = pair.indexOf('=');
        String name = eq < 0 ? pair : pair.substring(0, eq);
        String value = eq < 0 ? "" : pair.substring(eq + 1);
        if (name.equalsIgnoreCase("user")) {
          user = decode(value);
        } else if (name.equalsIgnoreCase("password") || name.equalsIgnoreCase("pwd")) {
          password = decode(value);
        } else if (!pair.isEmpty()) {
          kept.add(pair);
        }
      }
      rest = rest.substring(0, query) + (kept.isEmpty() ? "" : "?" + String.join("&", kept));
    }
    return new Credentials(rest, user, password);
  }

  /** As Connector/J decodes a URL's credentials ('+' is a space, %2B a plus), or as written when malformed. */
  private static String decode(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return s; // not percent-encoded after all: take it as written
    }
  }
}
