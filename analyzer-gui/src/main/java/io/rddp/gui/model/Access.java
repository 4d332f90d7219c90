package io.rddp.gui.model;

/**
 * One access to a tagged buffer, for the placement map: what an RDMA Write or Read Response placed, what a Read
 * Request asked to read, what an Atomic Request touched.
 *
 * @param stag       the STag
 * @param to         first Tagged Offset (unsigned)
 * @param length     octets
 * @param kind       "Write", "Read Response", "Read (source)", "Atomic"
 * @param stream     TCP stream
 * @param firstFrame first frame of the message
 * @param lastFrame  frame that completed it
 * @param violation  a violation was reported at one of its frames (bounds, overlap, access...)
 */
public record Access(long stag, long to, long length, String kind, int stream, long firstFrame, long lastFrame,
                     boolean violation) {
    public boolean writes() {
        return kind.equals("Write") || kind.equals("Read Response") || kind.equals("Atomic");
    }
}
