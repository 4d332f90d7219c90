package io.rddp.rdmap;

import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.DdpSegmenter;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the DDP segments of RDMA messages. Each factory fills in what the RFCs require for the opcode (buffer
 * model and QN from RFC 5040 §4.1 Figure 4 / RFC 7306 Figure 2, RV 1, DV 1, reserved fields zero); every field can
 * then be overridden on the {@link Builder} to produce a faulty message on purpose.
 */
public final class RdmapEncoder {

    /** The largest ULPDU MPA can frame: ULPDU_Length is 16 bits (RFC 5044 §4.1). */
    public static final int MAX_ULPDU = 0xFFFF;

    private static final ByteBuffer NO_DATA = ByteBuffer.allocate(0);

    private RdmapEncoder() {
    }

    public static Builder write(long stag, long to, ByteBuffer data, int mulpdu) {
        return new Builder(Opcode.RDMA_WRITE).stag(stag).to(to).data(data).mulpdu(mulpdu);
    }

    public static Builder readRequest(long msn, ReadRequest request) {
        return new Builder(Opcode.RDMA_READ_REQUEST).msn(msn).header(request);
    }

    public static Builder readResponse(long stag, long to, ByteBuffer data, int mulpdu) {
        return new Builder(Opcode.RDMA_READ_RESPONSE).stag(stag).to(to).data(data).mulpdu(mulpdu);
    }

    public static Builder send(long msn, ByteBuffer data, int mulpdu) {
        return new Builder(Opcode.SEND).msn(msn).data(data).mulpdu(mulpdu);
    }

    public static Builder sendWithSe(long msn, ByteBuffer data, int mulpdu) {
        return new Builder(Opcode.SEND_WITH_SE).msn(msn).data(data).mulpdu(mulpdu);
    }

    public static Builder sendWithInvalidate(long msn, ByteBuffer data, int mulpdu, long invalidateStag) {
        return new Builder(Opcode.SEND_WITH_INVALIDATE).msn(msn).data(data).mulpdu(mulpdu)
                .invalidateStag(invalidateStag);
    }

    public static Builder sendWithSeAndInvalidate(long msn, ByteBuffer data, int mulpdu, long invalidateStag) {
        return new Builder(Opcode.SEND_WITH_SE_AND_INVALIDATE).msn(msn).data(data).mulpdu(mulpdu)
                .invalidateStag(invalidateStag);
    }

    public static Builder terminate(long msn, Terminate terminate) {
        return new Builder(Opcode.TERMINATE).msn(msn).header(terminate);
    }

    public static Builder immediateData(long msn, long data) {
        return new Builder(Opcode.IMMEDIATE_DATA).msn(msn).header(new ImmediateData(data));
    }

    public static Builder immediateDataWithSe(long msn, long data) {
        return new Builder(Opcode.IMMEDIATE_DATA_WITH_SE).msn(msn).header(new ImmediateData(data));
    }

    public static Builder atomicRequest(long msn, AtomicRequest request) {
        return new Builder(Opcode.ATOMIC_REQUEST).msn(msn).header(request);
    }

    public static Builder atomicResponse(long msn, AtomicResponse response) {
        return new Builder(Opcode.ATOMIC_RESPONSE).msn(msn).header(response);
    }

    /** A builder with the RFC defaults for {@code opcode} and nothing else: MSN 1, no header, no data. */
    public static Builder of(Opcode opcode) {
        return new Builder(opcode);
    }

    /**
     * One RDMA message. Defaults: RV 1 and Rsv 0 (RFC 5040 §4.1), DV 1 and Rsvd 0 (RFC 5041 §4.1), buffer model
     * and QN of the opcode, MSN 1 (RFC 5041 §4.3: the first MSN), STag/TO/MO/Invalidate STag 0, MULPDU
     * {@link #MAX_ULPDU}, L on the last segment.
     */
    public static final class Builder {
        private int rdmaVersion = 1;
        private int rdmapReserved;
        private int opcode;
        private int ddpVersion = 1;
        private int ddpReserved;
        private boolean tagged;
        private long stag;
        private long to;
        private long qn;
        private long msn = 1;
        private long mo;
        private long invalidateStag;
        private RdmapHeader header;
        private ByteBuffer data = NO_DATA;
        private int mulpdu = MAX_ULPDU;
        private boolean lastFlag = true;

        private Builder(Opcode op) {
            opcode = op.code();
            tagged = op.tagged();
            qn = Math.max(0, op.queueNumber());
        }

        /** RV, 2 bits. */
        public Builder rdmaVersion(int v) {
            rdmaVersion = v;
            return this;
        }

        /** RDMAP control Rsv, 2 bits. */
        public Builder rdmapReserved(int v) {
            rdmapReserved = v;
            return this;
        }

        /** The raw 4-bit opcode, reserved values included; does not change model, QN or header. */
        public Builder opcode(int code) {
            opcode = code;
            return this;
        }

        /** DDP DV, 2 bits. */
        public Builder ddpVersion(int v) {
            ddpVersion = v;
            return this;
        }

        /** DDP control Rsvd, 4 bits. */
        public Builder ddpReserved(int v) {
            ddpReserved = v;
            return this;
        }

        /** Buffer model of the segments, whatever the opcode requires. */
        public Builder tagged(boolean t) {
            tagged = t;
            return this;
        }

        public Builder stag(long v) {
            stag = v;
            return this;
        }

        /** TO of the first byte (tagged). */
        public Builder to(long v) {
            to = v;
            return this;
        }

        public Builder qn(long v) {
            qn = v;
            return this;
        }

        public Builder msn(long v) {
            msn = v;
            return this;
        }

        /** MO of the first segment (untagged); a conforming message starts at 0. */
        public Builder mo(long v) {
            mo = v;
            return this;
        }

        /** RsvdULP[8:39] of untagged segments: the Invalidate STag, or the bits that must be zero. */
        public Builder invalidateStag(long v) {
            invalidateStag = v;
            return this;
        }

        /** The opcode-specific header that opens the message, or null for none. */
        public Builder header(RdmapHeader h) {
            header = h;
            return this;
        }

        /** ULP payload after the header (position to limit; not copied unless a header precedes it). */
        public Builder data(ByteBuffer d) {
            data = d == null ? NO_DATA : d;
            return this;
        }

        /** Largest segment, DDP header included (RFC 5041 §5.2). */
        public Builder mulpdu(int v) {
            mulpdu = v;
            return this;
        }

        /** L flag of the final segment (true by default, RFC 5041 §4.1). */
        public Builder lastFlag(boolean l) {
            lastFlag = l;
            return this;
        }

        /** The message as DDP segments, payloads viewing the message bytes. */
        public List<DdpSegment> segments() {
            int control = new RdmapControl(rdmaVersion, rdmapReserved, opcode).toByte();
            DdpHeader first;
            if (tagged) {
                first = new TaggedHeader(false, ddpReserved, ddpVersion, control, stag, to);
            } else {
                if (invalidateStag < 0 || invalidateStag > 0xFFFF_FFFFL) {
                    throw new IllegalArgumentException("Invalidate STag is 32 bits unsigned: " + invalidateStag);
                }
                first = new UntaggedHeader(false, ddpReserved, ddpVersion, ((long) control << 32) | invalidateStag,
                        qn, msn, mo);
            }
            ByteBuffer message = data.duplicate();
            if (header != null) {
                message = ByteBuffer.allocate(header.length() + data.remaining());
                header.writeTo(message);
                message.put(data.duplicate()).flip();
            }
            List<DdpSegment> segments = DdpSegmenter.segment(first, message, mulpdu);
            if (!lastFlag) {
                int i = segments.size() - 1;
                DdpSegment s = segments.get(i);
                segments.set(i, new DdpSegment(s.header().withLast(false), s.payload()));
            }
            return segments;
        }

        /** Each segment written to its own heap buffer, ready for an MPA framer. */
        public List<ByteBuffer> ulpdus() {
            List<DdpSegment> segments = segments();
            List<ByteBuffer> out = new ArrayList<>(segments.size());
            for (DdpSegment s : segments) out.add(s.toByteBuffer());
            return out;
        }
    }
}
