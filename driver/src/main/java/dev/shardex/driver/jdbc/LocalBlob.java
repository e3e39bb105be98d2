package dev.shardex.driver.jdbc;

import dev.shardex.vocabulary.ShardexError;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.sql.Blob;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * A Blob held in memory, made by {@code Connection.createBlob()}: it belongs to no shard until it
 * is bound as a parameter, where the shard's driver reads it as a byte stream.
 */
final class LocalBlob implements Blob {
  private byte[] bytes = new byte[0];
  private boolean freed;

  @Override
  public long length() throws SQLException {
    return data().length;
  }

  @Override
  public byte[] getBytes(long pos, int length) throws SQLException {
    int from = position(pos, 0);
    return Arrays.copyOfRange(data(), from, Math.min(data().length, from + Math.max(0, length)));
  }

  @Override
  public InputStream getBinaryStream() throws SQLException {
    return new ByteArrayInputStream(data());
  }

  @Override
  public InputStream getBinaryStream(long pos, long length) throws SQLException {
    return new ByteArrayInputStream(getBytes(pos, (int) length));
  }

  @Override
  public long position(byte[] pattern, long start) throws SQLException {
    byte[] d = data();
    for (int i = position(start, 0); (long) i + pattern.length <= d.length; i++) {
      if (Arrays.equals(d, i, i + pattern.length, pattern, 0, pattern.length)) {
        return i + 1L;
      }
    }
    return -1;
  }

  @Override
  public long position(Blob pattern, long start) throws SQLException {
    return position(pattern.getBytes(1, (int) pattern.length()), start);
  }

  @Override
  public int setBytes(long pos, byte[] b) throws SQLException {
    return setBytes(pos, b, 0, b.length);
  }

  @Override
  public int setBytes(long pos, byte[] b, int offset, int len) throws SQLException {
    store(position(pos, 1), Arrays.copyOfRange(b, offset, offset + len));
    return len;
  }

  @Override
  public OutputStream setBinaryStream(long pos) throws SQLException {
    int from = position(pos, 1);
    return new java.io.ByteArrayOutputStream() {
      @Override
      public void close() throws java.io.IOException {
        super.close();
        try {
          LocalBlob.this.store(from, toByteArray());
        } catch (SQLException e) {
          throw new java.io.IOException(e);
        }
      }
    };
  }

  private void store(int from, byte[] part) throws SQLException {
    byte[] d = data();
    if (from + part.length > d.length) {
      d = Arrays.copyOf(d, from + part.length);
    }
    System.arraycopy(part, 0, d, from, part.length);
    bytes = d;
  }

  @Override
  public void truncate(long len) throws SQLException {
    bytes = Arrays.copyOf(data(), (int) Math.min(len, data().length));
  }

  @Override
  public void free() {
    freed = true;
    bytes = new byte[0];
  }

  private byte[] data() throws SQLException {
    if (freed) {
      throw ShardexError.LOB_FREED.exception("Blob");
    }
    return bytes;
  }

  private int position(long pos, int extra) throws SQLException {
    if (pos < 1 || pos > data().length + Math.max(extra, 1)) {
      throw ShardexError.LOB_POSITION.exception(pos, "Blob", data().length);
    }
    return (int) pos - 1;
  }
}
