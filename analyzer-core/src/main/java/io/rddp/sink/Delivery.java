package io.rddp.sink;

import io.rddp.rdmap.Opcode;
import io.rddp.tcp.Direction;

/**
 * One DDP message whose last segment arrived: the order of these per stream direction is the delivery order of
 * RFC 5041 §5.3 and §5.4 (messages are delivered in the order sent, after their last segment). Tagged messages are
 * included (DDP delivers them to RDMAP, which places RDMA Writes without telling its ULP: RFC 5040 §5.1).
 *
 * @param stream     TCP stream index
 * @param direction  sender's direction
 * @param sequence   0-based position in this direction's delivery order
 * @param firstFrame frame of the first segment
 * @param lastFrame  frame of the last segment (L set)
 * @param tagged     buffer model
 * @param opcode     RDMAP opcode bits (0-15) from RsvdULP[0:7]
 * @param qn         Queue Number (untagged), -1 for tagged
 * @param msn        MSN (untagged), -1 for tagged
 * @param stag       STag (tagged), -1 for untagged
 * @param offset     TO of the first octet (tagged, unsigned) or 0
 * @param length     ULP message length in octets (RFC 5041 §5.4: MO + payload of the last segment)
 * @param segments   DDP segments seen
 */
public record Delivery(int stream, Direction direction, long sequence, long firstFrame, long lastFrame,
                       boolean tagged, int opcode, long qn, long msn, long stag, long offset, long length,
                       int segments) {

    /** The opcode, or null for a reserved value. */
    public Opcode kind() {
        return Opcode.of(opcode);
    }
}
