package io.rddp.oncrpc;

import java.util.List;

/**
 * What the decode of an RPC program's arguments or results learned (NFS, RFC 1813 and RFC 7530/8881).
 *
 * @param operations     NFSv4 COMPOUND operation names in order (with their status in a reply: "PUTFH OK");
 *                       empty for other programs
 * @param moreOperations operations counted but not decoded (the decode stops at an operation it cannot size)
 * @param status         nfsstat3 / nfsstat4 of a reply, -1 when none
 * @param maxReplyBytes  for a call, the most result data the reply may carry (READ count, READDIR maxcount), -1
 * @param dataOffset     stream offset of the DDP-eligible data item (WRITE data in a call, READ/READLINK data in a
 *                       reply; RFC 8267 §3, §4), -1 when none
 * @param dataLength     its length as the XDR length word says, -1 when none
 * @param chunkLength    for a reply, the length returned in the Write chunk that carried the item, -1 when the
 *                       item was inline
 * @param problem        why the decode stopped early, or null
 */
public record UlpInfo(List<String> operations, int moreOperations, long status, long maxReplyBytes, long dataOffset,
                      long dataLength, long chunkLength, String problem) {

    public UlpInfo {
        operations = List.copyOf(operations);
    }

    void appendTo(StringBuilder sb, boolean call) {
        if (!operations.isEmpty()) {
            sb.append(" [").append(String.join(", ", operations));
            if (moreOperations > 0) sb.append(", +").append(moreOperations).append(" more");
            sb.append(']');
        }
        if (!call && status >= 0 && operations.isEmpty()) sb.append(' ').append(RpcNames.nfsStatus(status));
        if (!call && status > 0 && !operations.isEmpty()) sb.append(' ').append(RpcNames.nfsStatus(status));
        if (dataLength >= 0) sb.append(" data ").append(dataLength);
        if (chunkLength >= 0) sb.append(" (in Write chunk)");
    }
}
