package dev.shardex.sandbox;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/** Runs one action per server concurrently: mariadbd start/stop is mostly waiting. */
final class Parallel {

    private Parallel() {}

    static void forEach(List<MariaDbServer> servers, Consumer<MariaDbServer> action) {
        List<Thread> threads = new ArrayList<>();
        List<RuntimeException> failures = Collections.synchronizedList(new ArrayList<>());
        for (MariaDbServer server : servers) {
            Thread thread = new Thread(() -> {
                try {
                    action.accept(server);
                } catch (RuntimeException e) {
                    failures.add(e);
                } catch (Throwable e) { // e.g. NoClassDefFoundError: must not look like success
                    failures.add(new SandboxException(server.label() + " failed: " + e, e));
                }
            }, "shardex-sandbox-" + server.label().replace(' ', '-'));
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            joinUninterruptibly(thread);
        }
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            failures.stream().skip(1).forEach(first::addSuppressed);
            throw first;
        }
    }

    private static void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // servers must not be left half-started
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
