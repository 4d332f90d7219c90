package io.rddp.ddp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;

/**
 * iWARP headers are in network byte order (RFC 5041 §4, RFC 5040 §4); these helpers keep parsers and emitters right
 * whatever order a caller's buffer happens to be set to.
 */
public final class NetworkOrder {

    private NetworkOrder() {
    }

    /** buf itself when big-endian (the usual case, no allocation), else a big-endian duplicate. */
    public static ByteBuffer reading(ByteBuffer buf) {
        return buf.order() == ByteOrder.BIG_ENDIAN ? buf : buf.duplicate();
    }

    /** Runs {@code writer} on out switched to big-endian, then restores out's order. */
    public static void writing(ByteBuffer out, Consumer<ByteBuffer> writer) {
        ByteOrder order = out.order();
        if (order == ByteOrder.BIG_ENDIAN) {
            writer.accept(out);
            return;
        }
        out.order(ByteOrder.BIG_ENDIAN);
        try {
            writer.accept(out);
        } finally {
            out.order(order);
        }
    }
}
