package dev.shardex.examples.friendfeed;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * A schemaless FriendFeed entity: a 16-byte id and a flat property map, stored as zlib-compressed
 * JSON in {@code entities.body}. Only flat objects of numbers and strings are written, so the codec
 * is the few lines below rather than a JSON library.
 */
public record Entity(byte[] id, Map<String, Object> properties) {
  private static final Pattern FIELD = Pattern.compile("\"([a-z_]+)\":(-?\\d+|\"((?:[^\"\\\\]|\\\\.)*)\")");

  public Object get(String name) {
    return properties.get(name);
  }

  public byte[] body() {
    StringBuilder json = new StringBuilder("{");
    properties.forEach((k, v) -> {
      json.append(json.length() > 1 ? "," : "").append('"').append(k).append("\":");
      json.append(v instanceof Number ? v.toString() : '"' + v.toString().replace("\\", "\\\\").replace("\"", "\\\"") + '"');
    });
    byte[] raw = json.append('}').toString().getBytes(StandardCharsets.UTF_8);
    Deflater zlib = new Deflater();
    zlib.setInput(raw);
    zlib.finish();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[512];
    while (!zlib.finished()) {
      out.write(buf, 0, zlib.deflate(buf));
    }
    zlib.end();
    return out.toByteArray();
  }

  public static Entity decode(byte[] id, byte[] body) {
    Inflater zlib = new Inflater();
    zlib.setInput(body);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[512];
    try {
      while (!zlib.finished()) {
        int n = zlib.inflate(buf);
        if (n == 0 && zlib.needsInput()) {
          break;
        }
        out.write(buf, 0, n);
      }
    } catch (DataFormatException e) {
      throw new IllegalArgumentException("entity body is not zlib data", e);
    } finally {
      zlib.end();
    }
    Map<String, Object> props = new LinkedHashMap<>();
    Matcher m = FIELD.matcher(out.toString(StandardCharsets.UTF_8));
    while (m.find()) {
      props.put(m.group(1), m.group(3) != null ? m.group(3).replace("\\\"", "\"").replace("\\\\", "\\") : Long.parseLong(m.group(2)));
    }
    return new Entity(id, props);
  }
}
