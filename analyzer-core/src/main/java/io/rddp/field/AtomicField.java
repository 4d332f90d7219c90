package io.rddp.field;

import java.util.List;

/** RFC 7306's Atomic Request and Atomic Response headers (in RDMAP's untagged messages). */
public final class AtomicField {
    private AtomicField() {
    }

    private static final FieldList L = new FieldList();
    private static final String REQ = "RFC 7306 §4.3.1";
    private static final String RESP = "RFC 7306 §4.3.2";

    public static final Layer ATOMIC_REQUEST = Layer.of("rdmap.atomicRequest", Layer.Shape.LAYER,
            "Atomic Request header", REQ);
    public static final Layer ATOMIC_RESPONSE = Layer.of("rdmap.atomicResponse", Layer.Shape.LAYER,
            "Atomic Response header", RESP);

    public static final Field ATOMIC_OPCODE = L.number(ATOMIC_REQUEST, "atomicOpcode", "Atomic operation",
            "The atomic operation: 0 Fetch and Add, 1 Compare and Swap", REQ);
    public static final Field ATOMIC_OPCODE_NAME = L.text(ATOMIC_REQUEST, "atomicOpcodeName", "Atomic operation name",
            "The atomic operation in words", REQ);
    public static final Field REQUEST_ID = L.number(ATOMIC_REQUEST, "requestId", "Request identifier",
            "Identifies the request; its Atomic Response carries it back", REQ);
    public static final Field REMOTE_STAG = L.hex32(ATOMIC_REQUEST, "remoteStag", "Remote STag",
            "STag of the buffer the operation targets", REQ);
    public static final Field REMOTE_TO = L.uint64(ATOMIC_REQUEST, "remoteTo", "Remote tagged offset",
            "TO of the 64-bit word the operation targets", REQ);
    public static final Field ADD_OR_SWAP_DATA = L.uint64(ATOMIC_REQUEST, "addOrSwapData", "Add or swap data",
            "The value added (Fetch and Add) or swapped in (Compare and Swap)", REQ);
    public static final Field ADD_OR_SWAP_MASK = L.uint64(ATOMIC_REQUEST, "addOrSwapMask", "Add or swap mask",
            "The mask applied to the add or swap data", REQ);
    public static final Field COMPARE_DATA = L.uint64(ATOMIC_REQUEST, "compareData", "Compare data",
            "The value compared with (Compare and Swap)", REQ);
    public static final Field COMPARE_MASK = L.uint64(ATOMIC_REQUEST, "compareMask", "Compare mask",
            "The mask applied to the compare data", REQ);

    public static final Field ORIGINAL_REQUEST_ID = L.number(ATOMIC_RESPONSE, "requestId",
            "Original request identifier", "The Request Identifier of the Atomic Request answered", RESP);
    public static final Field ORIGINAL_VALUE = L.uint64(ATOMIC_RESPONSE, "originalValue",
            "Original remote data value", "The target word's value before the operation", RESP);

    static final List<Field> ALL = L.all();
}
