package io.rddp.sink;

import io.rddp.ddp.DdpHeader;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.ReadRequest;

/** A Read or Atomic Request waiting for its response (RFC 5040 §5.2, RFC 7306 §5.2); they share one FIFO. */
final class Outstanding {
    final long frame;
    final ReadRequest read;
    final AtomicRequest atomic;
    final DdpHeader header;
    final int segmentLength;

    Outstanding(long frame, ReadRequest read, AtomicRequest atomic, DdpHeader header, int segmentLength) {
        this.frame = frame;
        this.read = read;
        this.atomic = atomic;
        this.header = header;
        this.segmentLength = segmentLength;
    }

    boolean isRead() {
        return read != null;
    }

    String describe() {
        return (isRead() ? "Read Request" : "Atomic Request") + " of frame " + frame;
    }
}
