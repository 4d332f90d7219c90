package io.rddp.filter;

import io.rddp.filter.FieldRecord.Type;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every name the display filter knows: the keys of the field registry ({@link io.rddp.decode.PduFields},
 * {@link io.rddp.rpcrdma.RpcRdmaFields}) as {@code decode -V} and the JSON lines show them, joined with '.', plus
 * the layers themselves ({@code rdmap}, {@code rpcrdma}, ...: true when the PDU has that layer) and a few names
 * from outside the PDU: {@code violation}, {@code violation.check}, {@code violation.severity}, {@code tcp.*},
 * {@code ip.*}. {@code FilterFieldsTest} checks that every key the registry emits on the bundled captures is here.
 */
public final class FilterFields {

    /** Kind of a name: a value type, or a layer/group that can only be tested for presence. */
    public enum Kind { NUMBER, BOOLEAN, TEXT, BYTES, LAYER }

    /** One filter name. */
    public record Field(String name, Kind kind, String description) {
    }

    private static final Map<String, Field> FIELDS = new LinkedHashMap<>();

    static {
        for (String[] layer : new String[][]{
                {"mpa", "MPA layer (start frame or FPDU)"}, {"ddp", "DDP segment"}, {"rdmap", "RDMAP header"},
                {"rdmap.readRequest", "RDMA Read Request header"}, {"rdmap.terminate", "Terminate header"},
                {"rdmap.atomicRequest", "Atomic Request header"}, {"rdmap.atomicResponse", "Atomic Response header"},
                {"rdmap.terminate.ddpHeader", "Terminated DDP header"},
                {"rdmap.terminate.readRequest", "Terminated RDMA Read Request header"},
                {"rpcrdma", "RPC-over-RDMA transport header"}, {"rpcrdma.reply", "Reply chunk"},
                {"rpc", "ONC RPC message"}, {"chunk", "RPC-over-RDMA chunk moved by this RDMA operation"}}) {
            FIELDS.put(layer[0], new Field(layer[0], Kind.LAYER, layer[1]));
        }
        for (Field f : List.of(
            f("chunk.afterReply", Type.BOOLEAN, "After the reply was sent"),
            f("chunk.chunkIndex", Type.NUMBER, "Chunk index"),
            f("chunk.inBounds", Type.BOOLEAN, "Inside the segment"),
            f("chunk.kind", Type.TEXT, "Chunk"),
            f("chunk.length", Type.NUMBER, "Length"),
            f("chunk.matched", Type.BOOLEAN, "Matches an advertised segment"),
            f("chunk.segment", Type.NUMBER, "Segment index"),
            f("chunk.segmentOffset", Type.NUMBER, "Offset in segment"),
            f("chunk.xid", Type.NUMBER, "XID"),
            f("ddp.last", Type.BOOLEAN, "Last (L)"),
            f("ddp.mo", Type.NUMBER, "Message offset"),
            f("ddp.msn", Type.NUMBER, "Message sequence number"),
            f("ddp.qn", Type.NUMBER, "Queue number"),
            f("ddp.rsvd", Type.NUMBER, "Reserved"),
            f("ddp.rsvdUlp", Type.NUMBER, "Reserved for ULP"),
            f("ddp.stag", Type.NUMBER, "STag"),
            f("ddp.tagged", Type.BOOLEAN, "Tagged (T)"),
            f("ddp.to", Type.NUMBER, "Tagged offset"),
            f("ddp.truncated", Type.BOOLEAN, "Cut short"),
            f("ddp.headerLength", Type.NUMBER, "Header length its T bit announces"),
            f("ddp.version", Type.NUMBER, "DDP version (DV)"),
            f("dst", Type.TEXT, "Destination"),
            f("frame", Type.NUMBER, "Frame"),
            f("mpa.c", Type.BOOLEAN, "CRC (C)"),
            f("mpa.crc", Type.NUMBER, "CRC32c"),
            f("mpa.crcOk", Type.BOOLEAN, "CRC good"),
            f("mpa.inferred", Type.BOOLEAN, "Parameters inferred (no handshake seen)"),
            f("mpa.ird", Type.NUMBER, "IRD (RFC 6581)"),
            f("mpa.keyValid", Type.BOOLEAN, "Key valid"),
            f("mpa.kind", Type.TEXT, "Kind"),
            f("mpa.m", Type.BOOLEAN, "Markers required (M)"),
            f("mpa.markers", Type.NUMBER, "Markers"),
            f("mpa.offset", Type.NUMBER, "TCP stream offset"),
            f("mpa.ord", Type.NUMBER, "ORD (RFC 6581)"),
            f("mpa.pad", Type.NUMBER, "Pad length"),
            f("mpa.pdLength", Type.NUMBER, "Private data length"),
            f("mpa.peerToPeer", Type.BOOLEAN, "Peer-to-peer (RFC 6581)"),
            f("mpa.privateData", Type.BYTES, "Private data"),
            f("mpa.r", Type.BOOLEAN, "Reject (R)"),
            f("mpa.res", Type.NUMBER, "Reserved bits (Res)"),
            f("mpa.rev", Type.NUMBER, "Revision"),
            f("mpa.rtrRead", Type.BOOLEAN, "Zero-length Read RTR"),
            f("mpa.rtrSend", Type.BOOLEAN, "Zero-length Send RTR"),
            f("mpa.rtrWrite", Type.BOOLEAN, "Zero-length Write RTR"),
            f("mpa.ulpduLength", Type.NUMBER, "ULPDU length"),
            f("problem", Type.TEXT, "Could not decode"),
            f("rdmap.atomicRequest.addOrSwapData", Type.NUMBER, "Add or swap data"),
            f("rdmap.atomicRequest.addOrSwapMask", Type.NUMBER, "Add or swap mask"),
            f("rdmap.atomicRequest.atomicOpcode", Type.NUMBER, "Atomic operation"),
            f("rdmap.atomicRequest.atomicOpcodeName", Type.TEXT, "Atomic operation name"),
            f("rdmap.atomicRequest.compareData", Type.NUMBER, "Compare data"),
            f("rdmap.atomicRequest.compareMask", Type.NUMBER, "Compare mask"),
            f("rdmap.atomicRequest.remoteStag", Type.NUMBER, "Remote STag"),
            f("rdmap.atomicRequest.remoteTo", Type.NUMBER, "Remote tagged offset"),
            f("rdmap.atomicRequest.requestId", Type.NUMBER, "Request identifier"),
            f("rdmap.atomicResponse.originalValue", Type.NUMBER, "Original remote data value"),
            f("rdmap.atomicResponse.requestId", Type.NUMBER, "Original request identifier"),
            f("rdmap.immediateData", Type.NUMBER, "Immediate data"),
            f("rdmap.invalidateStag", Type.NUMBER, "Invalidate STag"),
            f("rdmap.opcode", Type.NUMBER, "Opcode"),
            f("rdmap.opcodeName", Type.TEXT, "Opcode name"),
            f("rdmap.payloadLength", Type.NUMBER, "ULP payload length"),
            f("rdmap.readRequest.sinkStag", Type.NUMBER, "Data sink STag"),
            f("rdmap.readRequest.sinkTo", Type.NUMBER, "Data sink tagged offset"),
            f("rdmap.readRequest.size", Type.NUMBER, "RDMA Read message size"),
            f("rdmap.readRequest.srcStag", Type.NUMBER, "Data source STag"),
            f("rdmap.readRequest.srcTo", Type.NUMBER, "Data source tagged offset"),
            f("rdmap.terminate.code", Type.NUMBER, "Error code"),
            f("rdmap.terminate.d", Type.BOOLEAN, "DDP header included (D)"),
            f("rdmap.terminate.ddpHeader.last", Type.BOOLEAN, "Last (L)"),
            f("rdmap.terminate.ddpHeader.mo", Type.NUMBER, "Message offset"),
            f("rdmap.terminate.ddpHeader.msn", Type.NUMBER, "Message sequence number"),
            f("rdmap.terminate.ddpHeader.qn", Type.NUMBER, "Queue number"),
            f("rdmap.terminate.ddpHeader.rsvd", Type.NUMBER, "Reserved"),
            f("rdmap.terminate.ddpHeader.rsvdUlp", Type.NUMBER, "Reserved for ULP"),
            f("rdmap.terminate.ddpHeader.stag", Type.NUMBER, "STag"),
            f("rdmap.terminate.ddpHeader.tagged", Type.BOOLEAN, "Tagged (T)"),
            f("rdmap.terminate.ddpHeader.to", Type.NUMBER, "Tagged offset"),
            f("rdmap.terminate.ddpHeader.version", Type.NUMBER, "DDP version (DV)"),
            f("rdmap.terminate.ddpSegmentLength", Type.NUMBER, "DDP segment length"),
            f("rdmap.terminate.etype", Type.NUMBER, "Error type"),
            f("rdmap.terminate.layer", Type.NUMBER, "Layer"),
            f("rdmap.terminate.m", Type.BOOLEAN, "DDP segment length valid (M)"),
            f("rdmap.terminate.name", Type.TEXT, "Error"),
            f("rdmap.terminate.r", Type.BOOLEAN, "RDMAP header included (R)"),
            f("rdmap.terminate.readRequest.sinkStag", Type.NUMBER, "Data sink STag"),
            f("rdmap.terminate.readRequest.sinkTo", Type.NUMBER, "Data sink tagged offset"),
            f("rdmap.terminate.readRequest.size", Type.NUMBER, "RDMA Read message size"),
            f("rdmap.terminate.readRequest.srcStag", Type.NUMBER, "Data source STag"),
            f("rdmap.terminate.readRequest.srcTo", Type.NUMBER, "Data source tagged offset"),
            f("rdmap.version", Type.NUMBER, "RDMAP version"),
            f("rdmap.truncated", Type.BOOLEAN, "Cut short"),
            f("rdmap.headerLength", Type.NUMBER, "Header length its opcode announces"),
            f("rdmap.terminate.ddpHeader.truncated", Type.BOOLEAN, "Cut short"),
            f("rdmap.terminate.ddpHeader.headerLength", Type.NUMBER, "Header length its T bit announces"),
            f("rpc.acceptStat", Type.TEXT, "Accept status"),
            f("rpc.credFlavor", Type.NUMBER, "Credential flavor"),
            f("rpc.credFlavorName", Type.TEXT, "Credential"),
            f("rpc.dataChunkLength", Type.NUMBER, "Returned in a Write chunk of"),
            f("rpc.dataLength", Type.NUMBER, "DDP-eligible data item length"),
            f("rpc.dataOffset", Type.NUMBER, "DDP-eligible data item at"),
            f("rpc.length", Type.NUMBER, "Message length"),
            f("rpc.maxReplyData", Type.NUMBER, "Most data the reply may carry"),
            f("rpc.msgType", Type.TEXT, "Message type"),
            f("rpc.ops", Type.TEXT, "Operation"),
            f("rpc.procedure", Type.NUMBER, "Procedure"),
            f("rpc.procedureName", Type.TEXT, "Procedure name"),
            f("rpc.program", Type.NUMBER, "Program"),
            f("rpc.programName", Type.TEXT, "Program name"),
            f("rpc.replyStat", Type.TEXT, "Reply status"),
            f("rpc.rpcVersion", Type.NUMBER, "RPC version"),
            f("rpc.status", Type.NUMBER, "NFS status"),
            f("rpc.statusName", Type.TEXT, "NFS status name"),
            f("rpc.ulpProblem", Type.TEXT, "Arguments/results decoded only in part"),
            f("rpc.version", Type.NUMBER, "Program version"),
            f("rpc.xid", Type.NUMBER, "XID"),
            f("rpcrdma.align", Type.NUMBER, "RDMA align"),
            f("rpcrdma.credits", Type.NUMBER, "Credits (requested or granted)"),
            f("rpcrdma.error", Type.NUMBER, "Error code"),
            f("rpcrdma.errorName", Type.TEXT, "Error"),
            f("rpcrdma.problem", Type.TEXT, "Header problem"),
            f("rpcrdma.proc", Type.NUMBER, "Procedure"),
            f("rpcrdma.procName", Type.TEXT, "Procedure name"),
            f("rpcrdma.reads.handle", Type.NUMBER, "Handle (STag)"),
            f("rpcrdma.reads.length", Type.NUMBER, "Length"),
            f("rpcrdma.reads.offset", Type.NUMBER, "Offset"),
            f("rpcrdma.reads.position", Type.NUMBER, "Position"),
            f("rpcrdma.recognition", Type.TEXT, "Recognised by"),
            f("rpcrdma.reply.segments.handle", Type.NUMBER, "Handle (STag)"),
            f("rpcrdma.reply.segments.length", Type.NUMBER, "Length"),
            f("rpcrdma.reply.segments.offset", Type.NUMBER, "Offset"),
            f("rpcrdma.role", Type.TEXT, "Sent by"),
            f("rpcrdma.sendLength", Type.NUMBER, "Send message length"),
            f("rpcrdma.source", Type.TEXT, "Message from"),
            f("rpcrdma.threshold", Type.NUMBER, "RDMA threshold"),
            f("rpcrdma.versHigh", Type.NUMBER, "Highest version supported"),
            f("rpcrdma.versLow", Type.NUMBER, "Lowest version supported"),
            f("rpcrdma.version", Type.NUMBER, "Version"),
            f("rpcrdma.writes.segments.handle", Type.NUMBER, "Handle (STag)"),
            f("rpcrdma.writes.segments.length", Type.NUMBER, "Length"),
            f("rpcrdma.writes.segments.offset", Type.NUMBER, "Offset"),
            f("rpcrdma.xid", Type.NUMBER, "XID"),
            f("src", Type.TEXT, "Source"),
            f("stream", Type.NUMBER, "TCP stream"),
            f("time", Type.TEXT, "Capture time (epoch seconds)"),
            f("violation", Type.BOOLEAN, "The sink model reported a violation at this PDU's frame"),
            f("violation.check", Type.TEXT, "Check id of a violation at this frame, e.g. ddp.untagged.msn"),
            f("violation.severity", Type.TEXT, "Severity of a violation at this frame: error, warning, info"),
            f("tcp.stream", Type.NUMBER, "TCP stream (same as stream)"),
            f("tcp.srcport", Type.NUMBER, "TCP source port"),
            f("tcp.dstport", Type.NUMBER, "TCP destination port"),
            f("tcp.port", Type.NUMBER, "TCP source or destination port"),
            f("ip.src", Type.TEXT, "Source address"),
            f("ip.dst", Type.TEXT, "Destination address"),
            f("ip.addr", Type.TEXT, "Source or destination address"))) {
            FIELDS.put(f.name(), f);
        }
    }

    private FilterFields() {
    }

    private static Field f(String name, Type type, String description) {
        return new Field(name, Kind.valueOf(type.name()), description);
    }

    /** The field of that name, or null. */
    public static Field get(String name) {
        return FIELDS.get(name);
    }

    /** Every name, layers first, then fields in name order. */
    public static List<Field> all() {
        return Collections.unmodifiableList(new ArrayList<>(FIELDS.values()));
    }

    /** Names that start with {@code prefix}, in name order (completion in the filter bar). */
    public static List<String> complete(String prefix) {
        List<String> out = new ArrayList<>();
        for (String n : FIELDS.keySet()) {
            if (n.startsWith(prefix)) out.add(n);
        }
        Collections.sort(out);
        return out;
    }

    /** The known name closest to {@code name} by edit distance, or null when none is close. */
    public static String closest(String name) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String n : FIELDS.keySet()) {
            int d = distance(name, n);
            if (d < bestDistance) {
                bestDistance = d;
                best = n;
            }
        }
        return bestDistance <= Math.max(2, name.length() / 4) ? best : null;
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
