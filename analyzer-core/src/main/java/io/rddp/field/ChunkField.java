package io.rddp.field;

import java.util.List;

/** An RDMA Write or Read that moves a chunk an RPC-over-RDMA message advertised (RFC 8166 §3.5.2). */
public final class ChunkField {
    private ChunkField() {
    }

    private static final FieldList L = new FieldList();
    private static final String MOVE = "RFC 8166 §3.5.2";

    public static final Layer CHUNK = Layer.of("chunk", Layer.Shape.LAYER,
            "RPC-over-RDMA chunk moved by this RDMA operation", MOVE);

    public static final Field MATCHED = L.bool(CHUNK, "matched", "Matches an advertised segment",
            "The operation's STag and TO lie in a segment of an advertised chunk", MOVE);
    public static final Field XID = L.hex32(CHUNK, "xid", "XID", "XID of the message that advertised the chunk",
            "RFC 8166 §4.2.1");
    public static final Field KIND = L.text(CHUNK, "kind", "Chunk", "read, write or reply", "RFC 8166 §4.3");
    public static final Field CHUNK_INDEX = L.number(CHUNK, "chunkIndex", "Chunk index",
            "Which chunk of its list, from 0", "RFC 8166 §4.3");
    public static final Field SEGMENT = L.number(CHUNK, "segment", "Segment index",
            "Which segment of the chunk, from 0", "RFC 8166 §3.4.3");
    public static final Field SEGMENT_OFFSET = L.number(CHUNK, "segmentOffset", "Offset in segment",
            "Where in the segment the operation starts", "RFC 8166 §3.4.3");
    public static final Field IN_BOUNDS = L.bool(CHUNK, "inBounds", "Inside the segment",
            "The operation ends inside the segment", "RFC 8166 §3.4.3");
    public static final Field AFTER_REPLY = L.bool(CHUNK, "afterReply", "After the reply was sent",
            "The operation came after the RPC reply (shown only when it did)", "RFC 8166 §3.5.2");
    public static final Field LENGTH = L.number(CHUNK, "length", "Length", "Octets the operation moves", MOVE);

    static final List<Field> ALL = L.all();
}
