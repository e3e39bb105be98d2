package dev.shardex.cli.analyze;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A log file read line by line, counting the bytes consumed so a progress bar can follow it: a
 * 1 GB log streams through a 64 KB buffer. Undecodable bytes (binary literals in a log) become
 * U+FFFD rather than stopping the read.
 */
final class LineReader implements AutoCloseable {
  private final CountingStream counted;
  private final BufferedReader reader;

  LineReader(Path file) throws IOException {
    counted = new CountingStream(Files.newInputStream(file));
    reader = new BufferedReader(new InputStreamReader(counted, StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(java.nio.charset.CodingErrorAction.REPLACE)
        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPLACE)), 1 << 16);
  }

  String next() throws IOException {
    return reader.readLine();
  }

  long bytesRead() {
    return counted.count;
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }

  private static final class CountingStream extends java.io.FilterInputStream {
    long count;

    CountingStream(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      count += b < 0 ? 0 : 1;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      count += Math.max(n, 0);
      return n;
    }
  }
}
