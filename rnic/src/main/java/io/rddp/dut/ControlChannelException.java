package io.rddp.dut;

import java.io.IOException;

/**
 * The DUT's control channel broke or went silent (the agent died, hangs, or its host went away), as opposed to the DUT
 * refusing a request ({@link DutException}). A conformance run treats it as a DUT that stopped answering.
 */
public final class ControlChannelException extends IOException {
    public ControlChannelException(String message, Throwable cause) {
        super(message, cause);
    }
}
