package io.rddp.rdmap;

/**
 * RDMA message opcodes: RFC 5040 §4.1 Figure 4 (0-7) and RFC 7306 §4.1 Figure 2 (8-11); 12-15 are reserved.
 * Each opcode fixes the DDP buffer model, the untagged Queue Number and the RDMAP header that opens the message
 * (RFC 5040 §4.2 Figure 5, RFC 7306 §4.2 Figure 3).
 */
public enum Opcode {
    RDMA_WRITE(0x0, "RDMA Write", "Write", true, -1, 0, "RFC 5040"),
    RDMA_READ_REQUEST(0x1, "RDMA Read Request", "Read Request", false, 1, ReadRequest.LENGTH, "RFC 5040"),
    RDMA_READ_RESPONSE(0x2, "RDMA Read Response", "Read Response", true, -1, 0, "RFC 5040"),
    SEND(0x3, "Send", "Send", false, 0, 0, "RFC 5040"),
    SEND_WITH_INVALIDATE(0x4, "Send with Invalidate", "Send with Invalidate", false, 0, 0, "RFC 5040"),
    SEND_WITH_SE(0x5, "Send with SE", "Send with SE", false, 0, 0, "RFC 5040"),
    SEND_WITH_SE_AND_INVALIDATE(0x6, "Send with SE and Invalidate", "Send with SE and Invalidate", false, 0, 0,
            "RFC 5040"),
    /** QN 2 (RFC 5040 §4.1 Figure 4); the Terminate header is 4 to 52 bytes, 4 is the part always present. */
    TERMINATE(0x7, "Terminate", "Terminate", false, 2, Terminate.CONTROL_LENGTH, "RFC 5040"),
    IMMEDIATE_DATA(0x8, "Immediate Data", "Immediate Data", false, 0, ImmediateData.LENGTH, "RFC 7306"),
    IMMEDIATE_DATA_WITH_SE(0x9, "Immediate Data with SE", "Immediate Data with SE", false, 0, ImmediateData.LENGTH,
            "RFC 7306"),
    /** QN 1, the RDMA Read Request queue (RFC 7306 §5.2). */
    ATOMIC_REQUEST(0xA, "Atomic Request", "Atomic Request", false, 1, AtomicRequest.LENGTH, "RFC 7306"),
    /** QN 3 (RFC 7306 §5.2, §10.2). */
    ATOMIC_RESPONSE(0xB, "Atomic Response", "Atomic Response", false, 3, AtomicResponse.LENGTH, "RFC 7306");

    private static final Opcode[] BY_CODE = new Opcode[16];

    static {
        for (Opcode o : values()) BY_CODE[o.code] = o;
    }

    private final int code;
    private final String rfcName;
    private final String shortName;
    private final boolean tagged;
    private final int queueNumber;
    private final int headerLength;
    private final String rfc;

    Opcode(int code, String rfcName, String shortName, boolean tagged, int queueNumber, int headerLength,
           String rfc) {
        this.code = code;
        this.rfcName = rfcName;
        this.shortName = shortName;
        this.tagged = tagged;
        this.queueNumber = queueNumber;
        this.headerLength = headerLength;
        this.rfc = rfc;
    }

    /** The opcode for a 4-bit value, or null for the reserved values 12-15 (and anything out of range). */
    public static Opcode of(int code) {
        return code >= 0 && code < 16 ? BY_CODE[code] : null;
    }

    /** The 4-bit value on the wire. */
    public int code() {
        return code;
    }

    /** The message type as the RFC's tables name it ("RDMA Read Request"). */
    public String rfcName() {
        return rfcName;
    }

    /**
     * The name tshark's iwarp_rdma.opcode shows ("Read Request"). tshark 4.0 has no names for 8 and 9 (it prints
     * "Unknown 8"); those get their RFC 7306 names here.
     */
    public String shortName() {
        return shortName;
    }

    /** The DDP buffer model the RFC requires (the T flag column of RFC 5040 Figure 4 / RFC 7306 Figure 2). */
    public boolean tagged() {
        return tagged;
    }

    /** The untagged Queue Number the RFC requires, or -1 for tagged opcodes. */
    public int queueNumber() {
        return queueNumber;
    }

    /**
     * Bytes of RDMAP header at the start of the message (MO 0): 28 Read Request, 4 (minimum) Terminate, 8 Immediate
     * Data, 52 Atomic Request, 12 Atomic Response, 0 for the rest.
     */
    public int headerLength() {
        return headerLength;
    }

    /** Send with Invalidate and Send with SE and Invalidate carry an Invalidate STag in RsvdULP (RFC 5040 §4.1). */
    public boolean carriesInvalidateStag() {
        return this == SEND_WITH_INVALIDATE || this == SEND_WITH_SE_AND_INVALIDATE;
    }

    /** The Solicited Event variants. */
    public boolean solicitedEvent() {
        return this == SEND_WITH_SE || this == SEND_WITH_SE_AND_INVALIDATE || this == IMMEDIATE_DATA_WITH_SE;
    }

    /** "RFC 5040" or "RFC 7306". */
    public String rfc() {
        return rfc;
    }

    @Override
    public String toString() {
        return rfcName;
    }
}
