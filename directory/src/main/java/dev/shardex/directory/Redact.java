package dev.shardex.directory;

import java.util.regex.Pattern;

/** Strips secrets from URLs and messages before they reach a log line or an exception. */
public final class Redact {
  private static final Pattern SECRET =
      Pattern.compile("((?:password|pwd|passwd|secret)[0-9]*=)[^&;\\s]*", Pattern.CASE_INSENSITIVE);
  private static final Pattern USERINFO = Pattern.compile("//([^/@:]+):[^/@]*@");

  private Redact() {}

  public static String url(String url) {
    if (url == null) {
      return null;
    }
    return USERINFO.matcher(SECRET.matcher(url).replaceAll("$1***")).replaceAll("//$1:***@");
  }

  /** Removes a known password, wherever a driver below us may have echoed it, then URL secrets. */
  public static String text(String text, String password) {
    if (text == null) {
      return null;
    }
    String out = text;
    if (password != null && !password.isEmpty()) {
      out = out.replace(password, "***");
    }
    return url(out);
  }
}
