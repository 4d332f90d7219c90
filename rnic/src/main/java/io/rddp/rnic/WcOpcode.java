package io.rddp.rnic;

import java.util.Locale;

/** What a work request or received message was (the control protocol's completion opcodes). */
public enum WcOpcode {
    SEND, WRITE, READ, FETCH_ADD, CMP_SWAP, IMMEDIATE, LOCAL_INV, RECV, RECV_IMMEDIATE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
