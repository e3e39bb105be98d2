package dev.shardex.sandbox;

/**
 * A sandbox server could not be installed, started, stopped or provisioned. Unchecked because
 * callers (tests, demos) cannot recover from a broken embedded database anyway; the message names
 * the server, its port and its data directory so the failure can be found without a debugger.
 */
public final class SandboxException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SandboxException(String message, Throwable cause) {
        super(message, cause);
    }

    public SandboxException(String message) {
        super(message);
    }
}
