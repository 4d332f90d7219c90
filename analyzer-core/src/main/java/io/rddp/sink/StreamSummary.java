package io.rddp.sink;

import io.rddp.count.DirectionCounts;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.Opcode;
import io.rddp.tcp.Direction;

import java.util.Map;

/**
 * What the model saw on one TCP stream, reported when the stream ends (both sides closed) or at the end of the
 * capture.
 *
 * @param stream         TCP stream index
 * @param initiator      direction that sent the MPA Request, or null when none was seen
 * @param request        the MPA Request, or null
 * @param reply          the MPA Reply, or null
 * @param clientToServer counters of the client's direction
 * @param serverToClient counters of the server's direction
 */
public record StreamSummary(int stream, Direction initiator, MpaStartFrame request, MpaStartFrame reply,
                            Counters clientToServer, Counters serverToClient, long rpcRdmaMessages) {

    /**
     * @param segments          DDP segments
     * @param messages          completed DDP messages
     * @param opcodes           completed messages per RDMAP opcode (reserved ones included) with their segments and
     *                          ULP message octets (RFC 5041 §5.4)
     * @param bytesPlaced       tagged payload octets
     * @param bytesDelivered    untagged payload octets of completed messages
     * @param terminateFrame    frame of this side's Terminate, or -1
     */
    public record Counters(long segments, long messages, DirectionCounts opcodes, long bytesPlaced,
                           long bytesDelivered, long terminateFrame) {

        /** Completed messages per defined RDMAP opcode, in opcode order. */
        public Map<Opcode, Long> messagesByOpcode() {
            return opcodes.messagesByOpcode();
        }

        /** Completed messages with a reserved opcode. */
        public long reservedOpcodeMessages() {
            return opcodes.reservedMessages();
        }
    }

    public Counters counters(Direction d) {
        return d == Direction.CLIENT_TO_SERVER ? clientToServer : serverToClient;
    }
}
