package io.rddp.generate;

/** Named traffic patterns for {@code rddp generate}: test inputs, regression captures and benchmark loads. */
public enum Scenario {
    RPING("rping", "like rping -v: Send advert, Read Request/Response, Send, Send, Write, Send per iteration"),
    WRITE_STREAM("write-stream", "RDMA Writes of --message-size bytes, client to server, TO advancing"),
    READ_STREAM("read-stream", "RDMA Read Requests from the client, Read Responses of --message-size bytes"),
    SEND_STREAM("send-stream", "Sends of --message-size bytes, client to server"),
    SEND_INVALIDATE("send-invalidate", "the client Writes into a fresh server STag each time, then Sends with Invalidate of it"),
    TERMINATE("terminate", "Sends, then one with a skipped MSN, answered by Terminate 1/2/3 (RFC 5041 §7.2)"),
    MARKERS_CRC("markers-crc", "CRC on; Markers only toward the client (its Request had M=1, RFC 5044 §7.1)"),
    ATOMICS("atomics", "RFC 7306: Fetch-and-Add and Compare-and-Swap with responses, and Immediate Data"),
    NFS_RDMA("nfs-rdma", "NFS over RPC-over-RDMA (RFC 8166) on port 20049 with RFC 8797 private data: Short messages, "
            + "Read chunk, Write chunk, Long Call, Long Reply, ERR_VERS; --message-size sets the chunk data size"),
    MIXED("mixed", "three connections interleaved (IPv4 and IPv6): rping, write-stream and read-stream"),
    BUSY_RNIC("busy-rnic", "a busy RNIC: --connections (default 64) connections, MPA rev 2 with CRC, a random mix of "
            + "Sends, RDMA Writes and RDMA Reads of 16 B to 64 KiB, one FPDU per MSS-sized segment (MSS 1448 unless "
            + "--mss), the connections' segments interleaved at random (--seed)");

    private final String id;
    private final String description;

    Scenario(String id, String description) {
        this.id = id;
        this.description = description;
    }

    public String id() {
        return id;
    }

    public String description() {
        return description;
    }

    /** The scenario with this id, or null. */
    public static Scenario byId(String id) {
        for (Scenario s : values()) {
            if (s.id.equals(id)) return s;
        }
        return null;
    }
}
