package dev.shardex.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Secrets never reach a log line, an exception or the directory. */
class RedactTest {

  @Test
  void url_passwordOption_masked() {
    assertEquals("jdbc:mysql://h:3306/db?user=app&password=***&sslMode=REQUIRED",
        Redact.url("jdbc:mysql://h:3306/db?user=app&password=s3cr3t&sslMode=REQUIRED"));
  }

  @Test
  void url_passwordOptionLast_masked() {
    assertEquals("jdbc:mysql://h/db?password=***", Redact.url("jdbc:mysql://h/db?password=s3cr3t"));
  }

  @Test
  void url_passwordAnyCase_masked() {
    assertFalse(Redact.url("jdbc:mysql://h/db?PASSWORD=s3cr3t").contains("s3cr3t"));
    assertFalse(Redact.url("jdbc:mysql://h/db?Password=s3cr3t").contains("s3cr3t"));
  }

  @Test
  void url_pwdForm_masked() {
    // a ';' may be part of a password, so the mask runs to the next '&'
    assertEquals("Server=h;Uid=app;Pwd=***", Redact.url("Server=h;Uid=app;Pwd=s3cr3t;Database=db"));
    assertEquals("jdbc:x://h/db?pwd=***&a=1", Redact.url("jdbc:x://h/db?pwd=s3cr3t&a=1"));
  }

  @Test
  void url_userInfo_passwordMasked() {
    assertEquals("jdbc:mysql://app:***@h:3306/db", Redact.url("jdbc:mysql://app:s3cr3t@h:3306/db"));
  }

  @Test
  void url_userInfoWithoutPassword_unchanged() {
    assertEquals("jdbc:mysql://app@h:3306/db", Redact.url("jdbc:mysql://app@h:3306/db"));
  }

  @Test
  void url_noSecret_unchanged() {
    String url = "jdbc:mysql://127.0.0.1:3306/app?user=app&useSSL=false";
    assertEquals(url, Redact.url(url));
  }

  @Test
  void url_null_isNull() {
    assertNull(Redact.url(null));
    assertNull(Redact.text(null, "x"));
  }

  @Test
  void text_knownPassword_maskedAnywhere() {
    String out = Redact.text("Access denied for user 'app' (tried 's3cr3t'); s3cr3t again", "s3cr3t");
    assertEquals("Access denied for user 'app' (tried '***'); *** again", out);
  }

  @Test
  void text_passwordWithRegexCharacters_maskedLiterally() {
    assertEquals("pw was *** ok", Redact.text("pw was a.b*c$1 ok", "a.b*c$1"));
  }

  @Test
  void text_urlInsideAMessage_masked() {
    String out = Redact.text("cannot connect to jdbc:mysql://app:p1@h/db?password=p2 (refused)", null);
    assertEquals("cannot connect to jdbc:mysql://app:***@h/db?password=*** (refused)", out);
  }

  @Test
  void text_emptyPassword_leavesTextAlone() {
    assertEquals("nothing secret here", Redact.text("nothing secret here", ""));
  }

  @Test
  void url_semicolonAndEncodedCharactersInPassword_masked() {
    String url = "jdbc:mysql://h/db?user=app&password=a;b%26c%40d&sslMode=REQUIRED";
    String out = Redact.url(url);
    assertEquals("jdbc:mysql://h/db?user=app&password=***&sslMode=REQUIRED", out);
  }

  @Test
  void url_userInfoWithAtAndSlash_masked() {
    assertEquals("jdbc:mysql://app:***@h:3306/db?x=1", Redact.url("jdbc:mysql://app:p@ss/w;rd@h:3306/db?x=1"));
  }

  @Test
  void text_percentEncodedPassword_masked() {
    assertEquals("url had ***", Redact.text("url had p%40ss%3Bw", "p@ss;w"));
  }

  @Test
  void credentials_userInfo_takenOutAndDecoded() {
    Redact.Credentials c = Redact.credentials("jdbc:mysql://app:p%40ss;w@h:3306/db?sslMode=REQUIRED");
    assertEquals("jdbc:mysql://h:3306/db?sslMode=REQUIRED", c.url());
    assertEquals("app", c.user());
    assertEquals("p@ss;w", c.password());
  }

  @Test
  void credentials_options_takenOut() {
    Redact.Credentials c = Redact.credentials("jdbc:mysql://h/db?user=app&password=a%26b;c&useSSL=false");
    assertEquals("jdbc:mysql://h/db?useSSL=false", c.url());
    assertEquals("app", c.user());
    assertEquals("a&b;c", c.password());
    assertEquals("jdbc:mysql://h/db", Redact.credentials("jdbc:mysql://h/db?password=x").url());
    assertEquals("jdbc:mysql://h/db?a=1", Redact.credentials("jdbc:mysql://h/db?a=1&password=x").url());
    assertNull(Redact.credentials("jdbc:mysql://h/db").password());
  }
}
