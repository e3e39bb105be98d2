package dev.shardex.driver;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A loopback TCP proxy a test can cut and restore: an outage of the server behind it, for real, without stopping it. */
public final class TcpProxy implements AutoCloseable {
  private final int targetPort;
  private final int port;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile ServerSocket server;

  public TcpProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.server = listen(0);
    this.port = server.getLocalPort();
    accept(server);
  }

  public int port() {
    return port;
  }

  /** Closes the listener and every proxied connection: new connections are refused, open ones break. */
  public synchronized void cut() throws IOException {
    server.close();
    for (Socket s : sockets) {
      s.close();
    }
    sockets.clear();
  }

  public synchronized void restore() throws IOException {
    if (server.isClosed()) {
      server = listen(port);
      accept(server);
    }
  }

  @Override
  public void close() throws IOException {
    cut();
  }

  private static ServerSocket listen(int port) throws IOException {
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    return s;
  }

  private void accept(ServerSocket listener) {
    Thread t = new Thread(() -> {
      while (!listener.isClosed()) {
        try {
          Socket client = listener.accept();
          Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
          sockets.add(client);
          sockets.add(upstream);
          pump(client.getInputStream(), upstream.getOutputStream(), client, upstream);
          pump(upstream.getInputStream(), client.getOutputStream(), client, upstream);
        } catch (IOException e) {
          // listener closed (cut) or the target refused: the client sees its connection fail
        }
      }
    }, "tcp-proxy-" + port);
    t.setDaemon(true);
    t.start();
  }

  private static void pump(InputStream in, OutputStream out, Socket a, Socket b) {
    Thread t = new Thread(() -> {
      byte[] buf = new byte[16384];
      try {
        int n;
        while ((n = in.read(buf)) >= 0) {
          out.write(buf, 0, n);
          out.flush();
        }
      } catch (IOException ignored) {
        // either side closed
      } finally {
        try {
          a.close();
          b.close();
        } catch (IOException ignored) {
          // already closed
        }
      }
    });
    t.setDaemon(true);
    t.start();
  }
}
