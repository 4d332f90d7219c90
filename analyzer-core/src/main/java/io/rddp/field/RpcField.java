package io.rddp.field;

import java.util.List;

/** The ONC RPC message (RFC 5531) an RPC-over-RDMA message carries, and what its NFS arguments or results say. */
public final class RpcField {
    private RpcField() {
    }

    private static final FieldList L = new FieldList();
    private static final String MSG = "RFC 5531 §9";
    private static final String NFS = "RFC 1813, RFC 7530, RFC 8881";
    private static final String DDP = "RFC 8267 §4";

    public static final Layer RPC = Layer.of("rpc", Layer.Shape.LAYER, "ONC RPC message", MSG);

    public static final Field XID = L.hex32(RPC, "xid", "XID", "The transaction ID", MSG);
    public static final Field MSG_TYPE = L.text(RPC, "msgType", "Message type", "call or reply", MSG);
    public static final Field RPC_VERSION = L.number(RPC, "rpcVersion", "RPC version",
            "rpcvers of a call: 2", MSG);
    public static final Field PROGRAM = L.number(RPC, "program", "Program", "The RPC program number", MSG);
    public static final Field PROGRAM_NAME = L.text(RPC, "programName", "Program name",
            "The program's name, when it is a known one", MSG);
    public static final Field VERSION = L.number(RPC, "version", "Program version", "The program's version", MSG);
    public static final Field PROCEDURE = L.number(RPC, "procedure", "Procedure", "The procedure number", MSG);
    public static final Field PROCEDURE_NAME = L.text(RPC, "procedureName", "Procedure name",
            "The procedure's name", MSG);
    public static final Field CRED_FLAVOR = L.number(RPC, "credFlavor", "Credential flavor",
            "The call's credential flavor", "RFC 5531 §8.2");
    public static final Field CRED_FLAVOR_NAME = L.text(RPC, "credFlavorName", "Credential",
            "The credential flavor in words", "RFC 5531 §8.2");
    public static final Field REPLY_STAT = L.text(RPC, "replyStat", "Reply status",
            "MSG_ACCEPTED or MSG_DENIED", MSG);
    public static final Field ACCEPT_STAT = L.text(RPC, "acceptStat", "Accept status",
            "accept_stat of an accepted reply", MSG);
    public static final Field REJECT_STAT = L.text(RPC, "rejectStat", "Reject status",
            "RPC_MISMATCH or AUTH_ERROR of a denied reply", MSG);
    public static final Field AUTH_STAT = L.text(RPC, "authStat", "Auth status",
            "auth_stat of an AUTH_ERROR reply", MSG);
    public static final Field LOW = L.number(RPC, "low", "Lowest version",
            "Lowest version supported (PROG_MISMATCH or RPC_MISMATCH)", MSG);
    public static final Field HIGH = L.number(RPC, "high", "Highest version",
            "Highest version supported (PROG_MISMATCH or RPC_MISMATCH)", MSG);
    public static final Field LENGTH = L.number(RPC, "length", "Message length", "Octets of the RPC message", MSG);
    /** A list: one value per operation (the {@code Operations} subtree of {@code -V}). */
    public static final Field OPS = L.text(RPC, "ops", "Operation",
            "The NFS procedure or each NFSv4 COMPOUND operation", NFS);
    /** The label of the list {@link #OPS} items are shown in. */
    public static final String OPS_LIST_LABEL = "Operations";
    public static final Field MORE_OPS = L.number(RPC, "moreOps", "Operations not decoded",
            "COMPOUND operations after the ones decoded", NFS);
    public static final Field STATUS = L.number(RPC, "status", "NFS status", "The NFS reply's status", NFS);
    public static final Field STATUS_NAME = L.text(RPC, "statusName", "NFS status name",
            "The NFS status in words", NFS);
    public static final Field MAX_REPLY_DATA = L.number(RPC, "maxReplyData", "Most data the reply may carry",
            "The count a READ or READDIR asks for", NFS);
    public static final Field DATA_OFFSET = L.number(RPC, "dataOffset", "DDP-eligible data item at",
            "Offset in the RPC message of the data item a chunk may carry", DDP);
    public static final Field DATA_LENGTH = L.number(RPC, "dataLength", "DDP-eligible data item length",
            "Octets of the DDP-eligible data item", DDP);
    public static final Field DATA_CHUNK_LENGTH = L.number(RPC, "dataChunkLength", "Returned in a Write chunk of",
            "Octets of a reply's data item that went in a Write chunk", DDP);
    public static final Field ULP_PROBLEM = L.text(RPC, "ulpProblem", "Arguments/results decoded only in part",
            "Why the NFS arguments or results were decoded only in part", "-");

    /** At the top: the RPC message after the transport header did not decode. */
    public static final Field RPC_PROBLEM = L.text(FrameField.PDU, "rpcProblem", "RPC message not decoded",
            "Why the RPC message after the RPC-over-RDMA header did not decode", MSG);

    static final List<Field> ALL = L.all();
}
