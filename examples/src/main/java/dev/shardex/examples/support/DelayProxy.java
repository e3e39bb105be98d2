package dev.shardex.examples.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A TCP proxy on loopback that holds every chunk of bytes for a fixed delay in each direction, so
 * a round trip costs twice the delay: a stand-in for the network between an application and a
 * distant database. Bytes keep their order; bandwidth is not limited. Every thread is a daemon.
 */
public final class DelayProxy implements AutoCloseable {
  private final ServerSocket server;
  private final String targetHost;
  private final int targetPort;
  private final long delayNanos;
  private volatile boolean closed;

  public DelayProxy(String targetHost, int targetPort, long delayMillis) throws IOException {
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    this.delayNanos = delayMillis * 1_000_000L;
    daemon("delay-proxy-accept-" + port(), this::accept).start();
  }

  public int port() {
    return server.getLocalPort();
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = server.accept();
        Socket target = new Socket(targetHost, targetPort);
        client.setTcpNoDelay(true);
        target.setTcpNoDelay(true);
        pipe(client, target);
        pipe(target, client);
      } catch (IOException e) {
        if (!closed) {
          System.err.println("delay proxy: " + e.getMessage());
        }
      }
    }
  }

  private record Chunk(long due, byte[] bytes) {}

  /** One direction: a reader queues chunks with their due time, a writer sends them when due. */
  private void pipe(Socket from, Socket to) {
    BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
    daemon("delay-proxy-read", () -> {
      byte[] buf = new byte[64 * 1024];
      try (InputStream in = from.getInputStream()) {
        for (int n; (n = in.read(buf)) > 0; ) {
          queue.add(new Chunk(System.nanoTime() + delayNanos, Arrays.copyOf(buf, n)));
        }
      } catch (IOException e) {
        // the peer closed
      }
      queue.add(new Chunk(0, null));
    }).start();
    daemon("delay-proxy-write", () -> {
      try (OutputStream out = to.getOutputStream()) {
        while (true) {
          Chunk c = queue.take();
          if (c.bytes() == null) {
            break;
          }
          long wait = c.due() - System.nanoTime();
          if (wait > 0) {
            Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
          }
          out.write(c.bytes());
          out.flush();
        }
      } catch (IOException | InterruptedException e) {
        // the peer closed
      } finally {
        closeQuietly(to);
        closeQuietly(from);
      }
    }).start();
  }

  private static Thread daemon(String name, Runnable r) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
  }
}
