package dev.shardex.sandbox;

import java.util.concurrent.CountDownLatch;

/**
 * Starts a sandbox cluster from the command line and keeps it running until Ctrl-C.
 *
 * <pre>java dev.shardex.sandbox.SandboxMain [--shards N] [--name NAME]</pre>
 */
public final class SandboxMain {

    private SandboxMain() {}

    public static void main(String[] args) throws InterruptedException {
        int shards = 4;
        String name = "sandbox";
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if ((option.equals("--shards") || option.equals("--name")) && i + 1 < args.length) {
                String value = args[++i];
                if (option.equals("--shards")) {
                    shards = Integer.parseInt(value);
                } else {
                    name = value;
                }
            } else {
                System.err.println("Usage: SandboxMain [--shards N] [--name NAME]");
                System.exit(2);
            }
        }
        // SandboxCluster's own shutdown hook stops the servers and deletes their data on Ctrl-C.
        SandboxCluster cluster = SandboxCluster.start(name, shards);
        for (int i = 0; i < cluster.shardCount(); i++) {
            System.out.println("shard " + i + ":   " + cluster.shardUrl(i));
        }
        System.out.println("directory: " + cluster.directoryUrl());
        // Console output for a person setting up a demo; the password is a fixed, public default.
        System.out.println("user " + cluster.user() + ", password " + cluster.password());
        System.out.println("Press Ctrl-C to stop.");
        new CountDownLatch(1).await();
    }
}
