package dev.shardex.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * A plain main that starts a sandbox cluster and never closes it must still end when it returns
 * or throws, and the JVM's exit must stop its servers and delete their data.
 */
class SandboxExitTest {

    private static final Pattern STARTED = Pattern.compile("started (\\d+) (.+)");

    /** The child JVM's main: start a cluster, print where it lives, then return or throw. */
    public static final class Main {
        public static void main(String[] args) {
            SandboxCluster cluster = SandboxCluster.start("exit-" + args[0], 1);
            System.out.println("started " + TestSupport.port(cluster.directoryUrl()) + " " + cluster.rootDir());
            if (args[0].equals("throws")) {
                throw new IllegalStateException("the application failed");
            }
        }
    }

    @Test
    void aMainThatReturnsEndsItsJvmAndStopsTheCluster() throws Exception {
        assertEndsAndCleansUp("returns", 0);
    }

    @Test
    void aMainThatThrowsEndsItsJvmAndStopsTheCluster() throws Exception {
        String output = assertEndsAndCleansUp("throws", 1);
        assertTrue(output.contains("the application failed"), output);
    }

    private static String assertEndsAndCleansUp(String mode, int expectedExit) throws Exception {
        Path log = Files.createTempFile("sandbox-exit-", ".log");
        try {
            Process child = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", testClassPath(), Main.class.getName(), mode)
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            boolean ended = child.waitFor(120, TimeUnit.SECONDS); // a hang guard, not a timing assertion
            if (!ended) {
                child.descendants().forEach(ProcessHandle::destroyForcibly);
                child.destroyForcibly();
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertTrue(ended, "the JVM did not end after main " + mode + "; output:\n" + output);
            assertEquals(expectedExit, child.exitValue(), output);
            Matcher started = STARTED.matcher(output);
            assertTrue(started.find(), output);
            int port = Integer.parseInt(started.group(1));
            assertThrows(ConnectException.class, () -> new Socket(InetAddress.getLoopbackAddress(), port).close(),
                    "the directory server still listens on " + port);
            assertFalse(Files.exists(Paths.get(started.group(2))), "data left in " + started.group(2));
            return output;
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** Surefire runs tests from a manifest-only jar; the real class path is in its own property. */
    static String testClassPath() throws IOException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (String entry : List.of(classPath.split(java.io.File.pathSeparator))) {
            if (!Files.exists(Paths.get(entry))) {
                throw new IOException("class path entry " + entry + " does not exist");
            }
        }
        return classPath;
    }
}
