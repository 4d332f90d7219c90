package io.rddp.gui.model;

import io.rddp.decode.Pdu;
import io.rddp.mpa.Fpdu;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.FrameHeaders;
import io.rddp.tcp.TcpConnection;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * An FPDU in the window's field store as what the decoder started from: its MPA framing values, the first octets of
 * its ULPDU and its frame's headers (some 130 octets), not the fields and the info text they make (some 450).
 * Reading it back parses the DDP and RDMAP headers again with the pipeline's own parser ({@link Pdu#ofFpdu}), so
 * the row, the tree and a filter see what the CLI would: loading a 2 GB capture no longer describes 1.5 million
 * PDUs nobody looks at.
 * <p>
 * Only an FPDU whose headers lie wholly in the kept octets is stored so; MPA Request/Reply frames, FPDUs whose DDP or
 * RDMAP header did not parse and PDUs that carry RPC-over-RDMA keep their described fields ({@link DetailStore#begin}).
 */
final class PduCodec {
    /** ULPDU octets kept: the longest DDP + RDMAP header (a Terminate's or an Atomic Request's) is some 70. */
    static final int HEAD = CaptureSession.BYTES_KEPT - 2;
    private static final int CRC_PRESENT = 1, CRC_KNOWN = 2, CRC_OK = 4, INFERRED = 8, PAD_ZERO = 16, HEADERS = 32,
            SERVER_TO_CLIENT = 64;
    /** Largest ULPDU_Length (a 16-bit field, RFC 5044 §4.1): the size of the buffer a PDU is parsed from again. */
    private static final int MAX_ULPDU = 0xFFFF;
    /** Per reading thread: the ULPDU is the kept octets followed by zeros, which no header field reaches. */
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[MAX_ULPDU]);

    /** A connection's identity as a row shows it, without the reassembly state the decoder's object holds. */
    record Connection(int index, Endpoint client, Endpoint server) implements TcpConnection {
        static Connection of(TcpConnection c) {
            return new Connection(c.index(), c.client(), c.server());
        }

        @Override
        public boolean synSeen(Direction d) {
            return false;
        }

        @Override
        public long initialSequence(Direction d) {
            return 0;
        }
    }

    private PduCodec() {
    }

    /** Whether {@code pdu} can be kept as its framing and header octets and parsed again to the same fields. */
    static boolean fits(Pdu pdu) {
        if (pdu.startFrame() != null || pdu.problem() != null || pdu.ddp() == null || pdu.rdmap() == null) {
            return false;
        }
        Fpdu f = pdu.fpdu();
        return f.ulpdu().remaining() == f.ulpduLength()
                && f.ulpduLength() - pdu.rdmap().payload().remaining() <= HEAD;
    }

    static void write(Pdu pdu, RecordBuffer out) {
        Fpdu f = pdu.fpdu();
        out.writeVarLong(pdu.frame());
        out.writeVarLong(pdu.timestampNanos());
        out.writeVarLong(zigzag(pdu.relativeNanos()));
        out.writeVarLong(pdu.stream());
        out.writeVarLong(f.offset());
        out.writeVarLong(zigzag(pdu.frame() - f.firstFrame()));
        out.writeVarLong(zigzag(pdu.frame() - f.frame()));
        out.writeVarLong(f.ulpduLength());
        out.writeVarLong(f.padLength());
        out.writeVarLong(f.markerCount());
        out.writeVarLong(f.crc());
        out.writeByte((f.crcPresent() ? CRC_PRESENT : 0) | (f.crcOk() != null ? CRC_KNOWN : 0)
                | (Boolean.TRUE.equals(f.crcOk()) ? CRC_OK : 0) | (f.inferred() ? INFERRED : 0)
                | (f.padZero() ? PAD_ZERO : 0) | (pdu.headers() != null ? HEADERS : 0)
                | (pdu.direction() == Direction.SERVER_TO_CLIENT ? SERVER_TO_CLIENT : 0));
        if (pdu.headers() != null) HeaderCodec.write(pdu.headers(), out);
        int n = Math.min(HEAD, f.ulpdu().remaining());
        out.writeVarLong(n);
        out.write(f.ulpdu(), n);
    }

    /** A PDU read back, and the octets the hex pane shows (ULPDU_Length and the kept ULPDU octets). */
    record Read(Pdu pdu, byte[] bytes) {
    }

    /**
     * Reads a PDU back. Its ULPDU is a view of this thread's scratch buffer: use it before the next call on the same
     * thread.
     */
    static Read read(DataInputStream in, java.util.function.IntFunction<Connection> connections) throws IOException {
        long frame = DetailStore.readVarLong(in);
        long time = DetailStore.readVarLong(in);
        long relative = unzigzag(DetailStore.readVarLong(in));
        int stream = (int) DetailStore.readVarLong(in);
        long offset = DetailStore.readVarLong(in);
        long firstFrame = frame - unzigzag(DetailStore.readVarLong(in));
        long fpduFrame = frame - unzigzag(DetailStore.readVarLong(in));
        int ulpduLength = (int) DetailStore.readVarLong(in);
        int pad = (int) DetailStore.readVarLong(in);
        int markers = (int) DetailStore.readVarLong(in);
        long crc = DetailStore.readVarLong(in);
        int bits = in.readUnsignedByte();
        FrameHeaders headers = (bits & HEADERS) != 0 ? HeaderCodec.read(in) : null;
        int n = (int) DetailStore.readVarLong(in);
        if (ulpduLength > MAX_ULPDU || n > HEAD || n > ulpduLength) {
            throw new IOException("bad PDU record: " + n + " of " + ulpduLength + " ULPDU octets");
        }
        Connection c = connections.apply(stream);
        if (c == null) throw new IOException("bad PDU record: stream " + stream + " unknown");
        byte[] scratch = SCRATCH.get();
        java.util.Arrays.fill(scratch, 0, HEAD, (byte) 0);
        in.readFully(scratch, 0, n);
        byte[] bytes = new byte[2 + n];
        bytes[0] = (byte) (ulpduLength >>> 8);
        bytes[1] = (byte) ulpduLength;
        System.arraycopy(scratch, 0, bytes, 2, n);
        Boolean crcOk = (bits & CRC_KNOWN) == 0 ? null : (bits & CRC_OK) != 0;
        Fpdu f = new Fpdu(offset, firstFrame, fpduFrame, ulpduLength, ByteBuffer.wrap(scratch, 0, ulpduLength), pad,
                markers, (bits & CRC_PRESENT) != 0, crc, crcOk, (bits & INFERRED) != 0, (bits & PAD_ZERO) != 0);
        Direction d = (bits & SERVER_TO_CLIENT) != 0 ? Direction.SERVER_TO_CLIENT : Direction.CLIENT_TO_SERVER;
        return new Read(Pdu.ofFpdu(frame, time, relative, c, d, f, headers), bytes);
    }

    private static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    private static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }
}
