package io.rddp.conformance;

import java.io.Closeable;

/**
 * A connection the tester opened to the DUT for a scenario, with what the profile set up on the DUT's side.
 *
 * @param conn   the tester's end
 * @param buffer the DUT buffer the tester may target, or null
 * @param qp     the DUT's queue pair id (agent profile), or -1
 * @param receives receives the DUT has posted for the tester's Sends, -1 when unknown
 */
public record Session(ScriptedConnection conn, DutBuffer buffer, int qp, int receives) implements Closeable {

    /**
     * A DUT buffer.
     *
     * @param stag   its STag
     * @param to     Tagged Offset of its first octet
     * @param length octets
     * @param mr     its region id on the control channel, or -1
     */
    public record DutBuffer(long stag, long to, int length, int mr) {
    }

    @Override
    public void close() {
        conn.close();
    }
}
