package dev.shardex.sandbox;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;

/**
 * One mariadbd's console (stdout and stderr merged), read line by line by a daemon thread for as
 * long as the process lives, so the pipe never fills and no thread of ours keeps the JVM alive.
 * Tells a start when the server is ready or has died, and keeps the last lines for error messages.
 */
final class ServerOutput {

    private static final Logger LOG = LoggerFactory.getLogger(ServerOutput.class);
    private static final int KEPT_LINES = 15;
    private static final String ERROR = "[ERROR] ";
    private static final String READY = ": ready for connections.";

    private final Deque<String> lastLines = new ArrayDeque<>();
    private boolean ready;
    private boolean ended;

    /** One per process: starts the daemon thread that follows its console until it exits. */
    static ServerOutput follow(Process process, String label) {
        ServerOutput output = new ServerOutput();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    LOG.debug("{}: {}", label, line);
                    output.add(line);
                }
            } catch (IOException e) {
                LOG.debug("{}: console closed: {}", label, e.toString());
            } finally {
                output.end();
            }
        }, "shardex-sandbox-" + label.replace(' ', '-') + "-console");
        reader.setDaemon(true);
        reader.start();
        return output;
    }

    private ServerOutput() {}

    /**
     * Waits until the server says it is ready for connections (true), its console ends because it
     * exited (false), or the time is up (false).
     */
    synchronized boolean awaitReady(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!ready && !ended) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                break;
            }
            wait(left);
        }
        return ready;
    }

    synchronized String lastLines() {
        return String.join("\n", lastLines);
    }

    /** The server's own error messages among the last lines, e.g. "Can't start server: Bind ...". */
    synchronized String errors() {
        StringBuilder errors = new StringBuilder();
        for (String line : lastLines) {
            int at = line.indexOf(ERROR);
            if (at >= 0) {
                errors.append(errors.length() == 0 ? "" : "; ").append(line.substring(at + ERROR.length()));
            }
        }
        return errors.toString();
    }

    private synchronized void add(String line) {
        if (lastLines.size() == KEPT_LINES) {
            lastLines.removeFirst();
        }
        lastLines.addLast(line);
        if (line.contains(READY)) {
            ready = true;
            notifyAll();
        }
    }

    private synchronized void end() {
        ended = true;
        notifyAll();
    }
}
