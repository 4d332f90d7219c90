package io.rddp.generate;

import io.rddp.rdmap.ReadRequest;
import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.ReadSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.tcp.Direction;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes RPC-over-RDMA version 1 traffic (RFC 8166) on an iWARP connection: Sends of a transport header and its
 * Payload stream, the Responder's RDMA Reads of Read chunks and RDMA Writes into Write and Reply chunks. The
 * Requester is the TCP client. Every header field is the caller's, so faults are written as easily as good traffic.
 */
public final class RpcRdmaWriter {
    public static final Direction REQUESTER = Direction.CLIENT_TO_SERVER, RESPONDER = Direction.SERVER_TO_CLIENT;

    private final IwarpConnectionWriter w;
    private final long responderStag;
    private long responderTo;

    /**
     * @param responderStag the Responder's own STag that its RDMA Read Requests name as Data Sink
     * @param responderTo   where in it the first read lands
     */
    public RpcRdmaWriter(IwarpConnectionWriter w, long responderStag, long responderTo) {
        this.w = w;
        this.responderStag = responderStag;
        this.responderTo = responderTo;
    }

    public IwarpConnectionWriter connection() {
        return w;
    }

    /** One Send: the header's octets, then {@code payload} (may be empty). */
    public void send(Direction d, RpcRdmaHeader header, byte[] payload) {
        byte[] h = header.toBytes();
        ByteBuffer b = ByteBuffer.allocate(h.length + payload.length).put(h).put(payload).flip();
        w.message(d, w.send(d, b));
    }

    /** One Send of arbitrary octets (a malformed header). */
    public void sendRaw(Direction d, byte[] message) {
        w.message(d, w.send(d, ByteBuffer.wrap(message)));
    }

    /**
     * The Responder pulls {@code data} through the segments of one Read chunk, in list order (RFC 8166 §3.4.5):
     * an RDMA Read Request per segment, answered by the Requester's Read Response.
     */
    public void pull(List<ReadSegment> chunk, byte[] data) {
        int at = 0;
        for (ReadSegment s : chunk) {
            int n = (int) Math.min(s.target().length(), data.length - at);
            if (n <= 0) break;
            readRequest(s.target().handle(), s.target().offset(), n);
            w.message(REQUESTER, w.readResponse(REQUESTER, responderStag, responderTo,
                    ByteBuffer.wrap(data, at, n).slice()));
            responderTo += n;
            at += n;
        }
    }

    /** An RDMA Read Request from the Responder for {@code size} octets at {@code handle}/{@code offset}. */
    public void readRequest(long handle, long offset, long size) {
        w.message(RESPONDER, w.readRequest(RESPONDER, new ReadRequest(responderStag, responderTo, size, handle, offset)));
    }

    /**
     * The Responder pushes {@code data} into a Write or Reply chunk, filling its segments in order (RFC 8166
     * §3.4.6), and returns the chunk as the reply carries it: same handles and offsets, lengths of what was written.
     */
    public List<RdmaSegment> push(List<RdmaSegment> chunk, byte[] data) {
        List<RdmaSegment> returned = new ArrayList<>();
        int at = 0;
        for (RdmaSegment s : chunk) {
            int n = (int) Math.max(0, Math.min(s.length(), data.length - at));
            if (n > 0) {
                w.message(RESPONDER, w.write(RESPONDER, s.handle(), s.offset(), ByteBuffer.wrap(data, at, n).slice()));
            }
            returned.add(new RdmaSegment(s.handle(), n, s.offset()));
            at += n;
        }
        return returned;
    }

    /** An RDMA Write from the Responder, as given (for faults). */
    public void write(long handle, long offset, byte[] data) {
        w.message(RESPONDER, w.write(RESPONDER, handle, offset, ByteBuffer.wrap(data)));
    }
}
