package io.rddp.stats;

import io.rddp.count.DirectionCounts;
import io.rddp.count.OpcodeCounts;
import io.rddp.rdmap.Terminate;
import io.rddp.stats.LatencyHistogram.Latency;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;

import java.util.List;

/**
 * The statistics of one capture ({@code rddp stats}): counts and bytes per stream, direction and RDMAP opcode, RDMA
 * Read latencies, RPC-over-RDMA call → reply times and octets per chunk kind, the Terminates and how each connection
 * closed. All times are nanoseconds; epoch times as the capture stamped them.
 *
 * @param frames             frames read
 * @param pdus               PDUs decoded (MPA Requests/Replies and FPDUs)
 * @param firstNanos         time of the first frame, or -1 for an empty capture
 * @param lastNanos          time of the last frame
 * @param streams            the TCP streams that carried iWARP PDUs, by stream number (at most
 *                           {@link StatsCollector#MAX_STREAMS})
 * @param streamsNotListed   streams with PDUs beyond that cap: counted in the totals, not listed
 * @param readsFirst         Read Request → first Read Response segment, over every stream
 * @param readsLast          Read Request → last Read Response segment, over every stream
 * @param rpc                call → reply per RPC procedure over every stream
 * @param terminates         every Terminate in capture order (at most {@link StatsCollector#MAX_TERMINATES})
 * @param terminatesNotListed Terminates beyond that cap
 * @param error              why reading stopped early (file and frame), or null
 */
public record CaptureStats(long frames, long pdus, long firstNanos, long lastNanos, List<StreamStats> streams,
                           long streamsNotListed, Latency readsFirst, Latency readsLast, RpcStats rpc,
                           List<TerminateEntry> terminates, long terminatesNotListed, String error) {

    public CaptureStats {
        streams = List.copyOf(streams);
        terminates = List.copyOf(terminates);
    }

    /** Capture duration: last frame's time minus the first's. */
    public long durationNanos() {
        return firstNanos < 0 ? 0 : lastNanos - firstNanos;
    }

    /**
     * One TCP stream.
     *
     * @param stream         stream number (tshark's tcp.stream)
     * @param client         the side that sent the SYN (or was seen first)
     * @param server         the other side
     * @param firstFrame     frame of the stream's first PDU
     * @param lastFrame      frame of its last PDU
     * @param firstNanos     time of its first PDU
     * @param lastNanos      time of its last PDU
     * @param clientToServer what the client sent
     * @param serverToClient what the server sent
     * @param readsByClient  RDMA Reads the client requested (Read Requests client → server)
     * @param readsByServer  RDMA Reads the server requested
     * @param rpc            RPC-over-RDMA calls and replies (zero counts when the stream carries none)
     * @param close          how the connection ended
     */
    public record StreamStats(int stream, Endpoint client, Endpoint server, long firstFrame, long lastFrame,
                              long firstNanos, long lastNanos, DirectionStats clientToServer,
                              DirectionStats serverToClient, ReadStats readsByClient, ReadStats readsByServer,
                              RpcStats rpc, Close close) {

        public DirectionStats direction(Direction d) {
            return d == Direction.CLIENT_TO_SERVER ? clientToServer : serverToClient;
        }

        /** Reads requested by the side that sends in direction {@code d}. */
        public ReadStats reads(Direction d) {
            return d == Direction.CLIENT_TO_SERVER ? readsByClient : readsByServer;
        }
    }

    /**
     * What one side sent.
     *
     * @param startFrames MPA Requests and Replies
     * @param startFrameBytes their octets (RFC 5044 §7.1: 20-octet header, private data)
     * @param pdus        start frames and FPDUs
     * @param wireBytes   octets of start frames and FPDUs (ULPDU_Length, ULPDU, PAD, CRC, Markers: RFC 5044 §4.1)
     * @param counts      per RDMAP opcode seen, FPDUs whose DDP or RDMAP header did not parse last: DDP segments
     *                    (one per FPDU), messages ended by a segment with the L flag (RFC 5041 §4.1), ULP payload
     *                    octets after the DDP and RDMAP headers (the data a Write places, a Send delivers, a Read
     *                    Response returns) and FPDU octets on the wire
     */
    public record DirectionStats(long startFrames, long startFrameBytes, long pdus, long wireBytes,
                                 DirectionCounts counts) {

        /** The counts per opcode. */
        public List<OpcodeCounts> opcodes() {
            return counts.opcodes();
        }
    }

    /**
     * RDMA Reads one side requested (RFC 5040 §4.4, §5.2.1): each Read Request matched to the Read Response segments
     * the other side sent back to its Data Sink STag, in request order.
     *
     * @param requests   Read Requests sent
     * @param completed  answered up to the Read Response segment with the L flag
     * @param unanswered still waiting when the connection ended, or forgotten beyond the per-direction cap
     * @param unmatched  Read Response messages with no Read Request seen for their STag
     * @param requestedBytes octets asked for (Read Request's RDMA Read Message Size)
     * @param first      Read Request → first Read Response segment
     * @param last       Read Request → last Read Response segment (the whole Read)
     */
    public record ReadStats(long requests, long completed, long unanswered, long unmatched, long requestedBytes,
                            Latency first, Latency last) {
    }

    /**
     * RPC-over-RDMA (RFC 8166) calls and their replies, matched by XID on the same connection (RFC 5531 §9: a reply
     * carries its call's XID; RFC 8166 §4.2.1: so does the transport header), and the octets moved inline and
     * through each chunk kind. Every call ends up as exactly one of replied, unanswered or dropped.
     *
     * @param calls           Sends of the Requester with a transport header (RDMA_MSG, RDMA_NOMSG; RDMA_MSGP, which
     *                        a Responder answers with RDMA_ERROR; not RDMA_DONE, which nobody answers, §4.6.2)
     * @param replies         replies matched to a call (RDMA_ERROR included)
     * @param unanswered      calls with no reply when the connection ended, or whose XID a later call reused while
     *                        they were still open
     * @param dropped         calls forgotten unanswered because more than {@link StatsCollector#MAX_OPEN_CALLS}
     *                        were open in one direction (the oldest goes); a reply that comes later counts as
     *                        unmatched
     * @param unmatched       replies to no call seen
     * @param all             call → reply time of every matched pair
     * @param byProcedure     the same per RPC procedure ({@link ProcedureName}: "NFSv3 READ"), by name;
     *                        "(procedure not known)" when neither the call nor the reply named it,
     *                        "(RPC-over-RDMA version 2)" for calls whose transport header is not version 1
     * @param bytes           octets moved inline and through Read, Write and Reply chunks
     */
    public record RpcStats(long calls, long replies, long unanswered, long dropped, long unmatched, Latency all,
                           List<ProcedureStats> byProcedure, ChunkBytes bytes) {
        public static final RpcStats NONE = new RpcStats(0, 0, 0, 0, 0, Latency.NONE, List.of(), ChunkBytes.NONE);

        public RpcStats {
            byProcedure = List.copyOf(byProcedure);
        }

        /** Whether the stream carried no RPC-over-RDMA at all. */
        public boolean isEmpty() {
            return calls == 0 && replies == 0 && unmatched == 0 && bytes.isEmpty();
        }
    }

    /**
     * Calls of one RPC procedure: how they ended and the call → reply time of those answered
     * ({@code calls = replies + unanswered + dropped}).
     */
    public record ProcedureStats(String procedure, long calls, long replies, long unanswered, long dropped,
                                 Latency latency) {
    }

    /**
     * One Terminate message (RFC 5040 §4.8).
     *
     * @param frame     the frame that completed it
     * @param nanos     its time
     * @param stream    the TCP stream
     * @param direction which way it went
     * @param source    who sent it
     * @param destination who it was sent to
     * @param terminate the header: Layer, EType, Error Code and the terminated DDP and RDMA headers when present
     */
    public record TerminateEntry(long frame, long nanos, int stream, Direction direction, Endpoint source,
                                 Endpoint destination, Terminate terminate) {
    }

    /**
     * How a connection ended, from the TCP segments seen.
     *
     * @param clientFin frame of the client's FIN, or -1
     * @param serverFin frame of the server's FIN, or -1
     * @param clientRst frame of a RST the client sent, or -1
     * @param serverRst frame of a RST the server sent, or -1
     * @param end       why the analyzer stopped following it
     * @param endFrame  frame at which it stopped
     */
    public record Close(long clientFin, long serverFin, long clientRst, long serverRst, End end, long endFrame) {

        public enum End {
            /** closed both ways or reset */
            CLOSED,
            /** still open when the capture ended */
            CAPTURE_ENDED,
            /** let go by the TCP layer: evicted under its connection cap, or its 4-tuple reused */
            DROPPED
        }

        /** "FIN c>s 88, FIN s>c 90", "RST s>c 40", "FIN c>s 12, open at capture end". */
        public String describe() {
            StringBuilder sb = new StringBuilder();
            add(sb, "FIN c>s", clientFin);
            add(sb, "FIN s>c", serverFin);
            add(sb, "RST c>s", clientRst);
            add(sb, "RST s>c", serverRst);
            if (end == End.CAPTURE_ENDED) {
                sb.append(sb.length() > 0 ? ", " : "").append("open at capture end");
            } else if (end == End.DROPPED) {
                sb.append(sb.length() > 0 ? ", " : "").append("dropped at frame ").append(endFrame)
                        .append(" (connection cap or reused ports)");
            }
            return sb.toString();
        }

        private static void add(StringBuilder sb, String what, long frame) {
            if (frame < 0) return;
            if (sb.length() > 0) sb.append(", ");
            sb.append(what).append(' ').append(frame);
        }
    }
}
