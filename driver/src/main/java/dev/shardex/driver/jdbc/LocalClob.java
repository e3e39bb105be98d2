package dev.shardex.driver.jdbc;

import dev.shardex.vocabulary.ShardexError;
import java.io.ByteArrayInputStream;
import java.io.CharArrayReader;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Clob;
import java.sql.NClob;
import java.sql.SQLException;

/**
 * A Clob (and NClob) held in memory, made by {@code Connection.createClob()}: it belongs to no
 * shard until it is bound as a parameter, where the shard's driver reads it as a character stream.
 */
final class LocalClob implements NClob {
  private StringBuilder text = new StringBuilder();

  @Override
  public long length() throws SQLException {
    return chars().length();
  }

  @Override
  public String getSubString(long pos, int length) throws SQLException {
    int from = position(pos, 0);
    return chars().substring(from, Math.min(chars().length(), from + Math.max(0, length)));
  }

  @Override
  public Reader getCharacterStream() throws SQLException {
    return new StringReader(chars().toString());
  }

  @Override
  public Reader getCharacterStream(long pos, long length) throws SQLException {
    return new CharArrayReader(getSubString(pos, (int) length).toCharArray());
  }

  @Override
  public InputStream getAsciiStream() throws SQLException {
    return new ByteArrayInputStream(chars().toString().getBytes(StandardCharsets.US_ASCII));
  }

  @Override
  public long position(String search, long start) throws SQLException {
    int at = chars().indexOf(search, position(start, 0));
    return at < 0 ? -1 : at + 1;
  }

  @Override
  public long position(Clob search, long start) throws SQLException {
    return position(search.getSubString(1, (int) search.length()), start);
  }

  @Override
  public int setString(long pos, String str) throws SQLException {
    return setString(pos, str, 0, str.length());
  }

  @Override
  public int setString(long pos, String str, int offset, int len) throws SQLException {
    int from = position(pos, 1);
    String part = str.substring(offset, offset + len);
    chars().replace(from, Math.min(chars().length(), from + part.length()), part);
    return part.length();
  }

  @Override
  public OutputStream setAsciiStream(long pos) throws SQLException {
    int from = position(pos, 1);
    return new java.io.ByteArrayOutputStream() {
      @Override
      public void close() throws java.io.IOException {
        super.close();
        LocalClob.this.store(from, toString(StandardCharsets.US_ASCII));
      }
    };
  }

  @Override
  public Writer setCharacterStream(long pos) throws SQLException {
    int from = position(pos, 1);
    return new java.io.StringWriter() {
      @Override
      public void close() throws java.io.IOException {
        super.close();
        LocalClob.this.store(from, toString());
      }
    };
  }

  private void store(int from, String s) throws java.io.IOException {
    if (text == null) {
      throw new java.io.IOException("Shardex: the Clob was freed");
    }
    text.replace(from, Math.min(text.length(), from + s.length()), s);
  }

  @Override
  public void truncate(long len) throws SQLException {
    chars().setLength((int) Math.min(len, chars().length()));
  }

  @Override
  public void free() {
    text = null;
  }

  private StringBuilder chars() throws SQLException {
    if (text == null) {
      throw ShardexError.LOB_FREED.exception("Clob");
    }
    return text;
  }

  /** 0-based index of a 1-based position; {@code extra} allows writing just past the end. */
  private int position(long pos, int extra) throws SQLException {
    if (pos < 1 || pos > chars().length() + Math.max(extra, 1)) {
      throw ShardexError.LOB_POSITION.exception(pos, "Clob", chars().length());
    }
    return (int) pos - 1;
  }
}
