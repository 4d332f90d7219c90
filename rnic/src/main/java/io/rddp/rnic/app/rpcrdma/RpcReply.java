package io.rddp.rnic.app.rpcrdma;

import io.rddp.oncrpc.XdrReader;

/**
 * An RPC Reply message split around its DDP-eligible data item (RFC 8267 §3.1: NFSv3 READ's data), so the
 * transport can reduce it into a Write chunk (RFC 8166 §3.4.4): {@code head} ends with the item's XDR length word
 * (which stays in the Payload stream), {@code data} is the item's octets without roundup, {@code tail} follows the
 * roundup. A reply without such an item has a null {@code data} and an empty tail.
 */
public record RpcReply(byte[] head, byte[] data, byte[] tail) {

    public static RpcReply of(byte[] whole) {
        return new RpcReply(whole, null, new byte[0]);
    }

    /** The unreduced Payload stream: the data item inline with its XDR roundup. */
    public byte[] unreduced() {
        return data == null ? head : reduced(true);
    }

    /** The Payload stream with the data item moved to a Write chunk (no octets, no roundup, RFC 8166 §3.4.6.2). */
    public byte[] reduced() {
        return reduced(false);
    }

    private byte[] reduced(boolean inline) {
        int n = inline && data != null ? (int) XdrReader.padded(data.length) : 0;
        byte[] out = new byte[head.length + n + tail.length];
        System.arraycopy(head, 0, out, 0, head.length);
        if (n > 0) System.arraycopy(data, 0, out, head.length, data.length);
        System.arraycopy(tail, 0, out, head.length + n, tail.length);
        return out;
    }
}
