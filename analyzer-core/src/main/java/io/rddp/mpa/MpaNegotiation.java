package io.rddp.mpa;

import io.rddp.tcp.Direction;

/**
 * What the MPA layer knows about one connection's parameters: the start frames seen and, per direction, the framing
 * rules in force. Produced by {@link MpaDecoder#negotiation}.
 *
 * @param initiator      direction that carried the MPA Request (RFC 5044 §7.1: the Initiator sends the Request), or
 *                       null when no Request was seen
 * @param request        the MPA Request, or null
 * @param reply          the MPA Reply, or null
 * @param clientToServer framing of the client's FPDUs, or null while not known
 * @param serverToClient framing of the server's FPDUs, or null while not known
 */
public record MpaNegotiation(Direction initiator, MpaStartFrame request, MpaStartFrame reply,
                             Params clientToServer, Params serverToClient) {

    /**
     * Framing rules of one direction.
     *
     * @param markers           Markers present (asked for by the M bit of the frame the other side sent)
     * @param firstMarkerOffset stream offset of the first Marker when markers, else -1; Markers follow every 512
     *                          octets (RFC 5044 §4.3)
     * @param crc               CRC field checked (C bit set in the Request or the Reply, RFC 5044 §7.1.1)
     * @param inferred          guessed from the FPDUs because the handshake was not captured
     */
    public record Params(boolean markers, long firstMarkerOffset, boolean crc, boolean inferred) {
    }

    public Params params(Direction d) {
        return d == Direction.CLIENT_TO_SERVER ? clientToServer : serverToClient;
    }

    /** The Reply's R bit. */
    public boolean rejected() {
        return reply != null && reply.reject();
    }

    /** Rev of the Reply (what the connection runs), else of the Request, else -1. */
    public int revision() {
        return reply != null ? reply.revision() : request != null ? request.revision() : -1;
    }

    /** True when any direction's parameters were guessed. */
    public boolean inferred() {
        return clientToServer != null && clientToServer.inferred()
                || serverToClient != null && serverToClient.inferred();
    }

    /** RFC 6581 data of the Request, or null. */
    public MpaStartFrame.Enhanced initiatorEnhanced() {
        return request == null ? null : request.enhanced();
    }

    /** RFC 6581 data of the Reply, or null. */
    public MpaStartFrame.Enhanced responderEnhanced() {
        return reply == null ? null : reply.enhanced();
    }
}
