package io.rddp.mpa;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Builds the FPDUs of one direction of an MPA connection (RFC 5044 §4): ULPDU_Length, ULPDU, zero PAD, Markers at
 * the direction's Marker positions and the CRC field. Keeps the stream offset of the next FPDU, so it must see every
 * FPDU of the direction in order. Not thread-safe.
 *
 * <p>Positions are TCP stream offsets (0 = first octet after the SYN). Markers sit at offsets
 * ≡ {@code markerBase} (mod 512), {@code markerBase} being the offset of the first FPDU of Full Operation Phase
 * (RFC 5044 §4.3: first Marker immediately in front of the first FPDU); the ISN does not matter because 2^32 is a
 * multiple of 512.
 */
public final class FpduEncoder {

    /** How the CRC field is written (RFC 5044 §4.4); anything but {@link #RIGHT} is a fault. */
    public enum Crc {
        /** CRC32c least significant octet first when CRCs are on, zeros when off */
        RIGHT,
        /** the right value most significant octet first (the other byte order) */
        OTHER_BYTE_ORDER,
        /** the right value with its lowest bit flipped */
        WRONG,
        /** four zero octets even when CRCs are on */
        ZERO
    }

    /**
     * Faults for one FPDU, for testers and emulated buggy peers. The CRC covers what is on the wire, faults included,
     * unless {@link #crc} says otherwise.
     *
     * @param crc                how the CRC field is written
     * @param padByte            the value of every PAD octet (RFC 5044 §4.1: zero)
     * @param markerPointerDelta added to every FPDUPTR of a Marker inside this FPDU (RFC 5044 §4.2: 0)
     * @param omitMarkers        leave out the Markers the direction carries (the stream's Marker positions still count
     *                           from the direction's first FPDU, so later FPDUs carry Markers where the peer expects them
     *                           only if the octets left out are made up)
     */
    public record Faults(Crc crc, int padByte, int markerPointerDelta, boolean omitMarkers) {
        public static final Faults NONE = new Faults(Crc.RIGHT, 0, 0, false);

        public Faults {
            if (crc == null || padByte < 0 || padByte > 0xFF) throw new IllegalArgumentException("bad faults");
        }

        public Faults withCrc(Crc c) {
            return new Faults(c, padByte, markerPointerDelta, omitMarkers);
        }

        public Faults withPadByte(int b) {
            return new Faults(crc, b, markerPointerDelta, omitMarkers);
        }

        public Faults withMarkerPointerDelta(int d) {
            return new Faults(crc, padByte, d, omitMarkers);
        }

        public Faults withoutMarkers() {
            return new Faults(crc, padByte, markerPointerDelta, true);
        }
    }

    private final boolean markers;
    private final boolean crc;
    private final long markerBase;
    private final CRC32C crc32c = new CRC32C();
    private long offset;

    /** Encoder whose first FPDU (and first Marker, if any) starts at {@code firstFpduOffset}. */
    public FpduEncoder(boolean markers, boolean crc, long firstFpduOffset) {
        this(markers, crc, firstFpduOffset, firstFpduOffset);
    }

    /** Encoder continuing a direction whose first FPDU was at {@code markerBase}; the next FPDU goes at offset. */
    public FpduEncoder(boolean markers, boolean crc, long markerBase, long offset) {
        this.markers = markers;
        this.crc = crc;
        this.markerBase = markerBase;
        this.offset = offset;
    }

    public boolean markers() {
        return markers;
    }

    public boolean crc() {
        return crc;
    }

    /** Stream offset where the next FPDU starts. */
    public long offset() {
        return offset;
    }

    /** Wire length the next FPDU would have with a ULPDU of this length. */
    public int wireLength(int ulpduLength) {
        checkLength(ulpduLength);
        return MpaFraming.wireLength(ulpduLength, distance());
    }

    /** Wire length of the next FPDU with these faults (Markers left out make it shorter). */
    public int wireLength(int ulpduLength, Faults faults) {
        checkLength(ulpduLength);
        return MpaFraming.wireLength(ulpduLength, faults.omitMarkers() ? MpaFraming.NO_MARKERS : distance());
    }

    /** Encodes {@code ulpdu} (position to limit, not moved) as the next FPDU. */
    public byte[] encode(ByteBuffer ulpdu) {
        ByteBuffer out = ByteBuffer.allocate(wireLength(ulpdu.remaining()));
        encode(ulpdu, out);
        return out.array();
    }

    public byte[] encode(byte[] ulpdu) {
        return encode(ByteBuffer.wrap(ulpdu));
    }

    /**
     * Writes the next FPDU for {@code ulpdu} (position to limit, not moved) at {@code out}'s position and advances
     * it. The CRC field carries the CRC-32C least significant octet first when CRCs are on (see {@link Fpdu}) and
     * zeros when off, as siw sends it.
     *
     * @return octets written
     * @throws IllegalArgumentException when the ULPDU exceeds 65535 octets
     * @throws BufferOverflowException  when {@code out} is too small (nothing written)
     */
    public int encode(ByteBuffer ulpdu, ByteBuffer out) {
        return encode(ulpdu, out, Faults.NONE);
    }

    /** As {@link #encode(ByteBuffer, ByteBuffer)}, with {@code faults} put on the wire. */
    public int encode(ByteBuffer ulpdu, ByteBuffer out, Faults faults) {
        int len = ulpdu.remaining();
        int d0 = faults.omitMarkers() ? MpaFraming.NO_MARKERS : distance();
        int wire = wireLength(len, faults);
        if (out.remaining() < wire) {
            throw new BufferOverflowException();
        }
        Writer w = new Writer(out, d0, faults.markerPointerDelta());
        byte[] head = {(byte) (len >>> 8), (byte) len};        // RFC 5044 §4.1 ULPDU_Length, network order
        w.logical(ByteBuffer.wrap(head));
        w.logical(ulpdu.duplicate());
        byte[] pad = new byte[MpaFraming.padLength(len)];     // PAD MUST be zero (§4.1)
        java.util.Arrays.fill(pad, (byte) faults.padByte());
        w.logical(ByteBuffer.wrap(pad));
        w.markerIfDue();   // a Marker in front of the CRC field is covered by the CRC (§4.4)
        long value = 0;
        if (crc) {
            value = MpaFraming.crc32c(crc32c, out, w.start, out.position() - w.start);
        }
        value = switch (faults.crc()) {
            case RIGHT -> value;
            case OTHER_BYTE_ORDER -> Integer.reverseBytes((int) value) & 0xFFFF_FFFFL;
            case WRONG -> value ^ 1;
            case ZERO -> 0;
        };
        byte[] field = {(byte) value, (byte) (value >>> 8), (byte) (value >>> 16), (byte) (value >>> 24)};
        w.logical(ByteBuffer.wrap(field));
        offset += wire;
        return wire;
    }

    /** The next FPDU with {@code faults}, as a new array. */
    public byte[] encode(ByteBuffer ulpdu, Faults faults) {
        ByteBuffer out = ByteBuffer.allocate(wireLength(ulpdu.remaining(), faults));
        encode(ulpdu, out, faults);
        return out.array();
    }

    private int distance() {
        return markers ? MpaFraming.markerDistance(offset, markerBase) : MpaFraming.NO_MARKERS;
    }

    private static void checkLength(int ulpduLength) {
        if (ulpduLength < 0 || ulpduLength > MpaFraming.MAX_ULPDU) {
            throw new IllegalArgumentException("ULPDU of " + ulpduLength + " octets does not fit ULPDU_Length");
        }
    }

    /** Copies logical bytes to the wire, putting a Marker in front of each logical byte at a Marker position. */
    private static final class Writer {
        final ByteBuffer out;
        final int start;
        final int headerWire;
        final int pointerDelta;
        int logical;
        int nextMarker;

        Writer(ByteBuffer out, int d0, int pointerDelta) {
            this.out = out;
            this.start = out.position();
            this.nextMarker = d0;
            this.headerWire = d0 == 0 ? MpaFraming.MARKER_LENGTH : 0;
            this.pointerDelta = pointerDelta;
        }

        void logical(ByteBuffer src) {
            while (src.hasRemaining()) {
                markerIfDue();
                int chunk = (int) Math.min(src.remaining(), (long) nextMarker - logical);
                ByteBuffer part = src.slice(src.position(), chunk);
                out.put(part);
                src.position(src.position() + chunk);
                logical += chunk;
            }
        }

        void markerIfDue() {
            if (logical == nextMarker) {
                int at = out.position() - start;
                // RFC 5044 §4.2/§4.3: reserved zero; FPDUPTR = octets from ULPDU_Length back to the Marker, 0 for a
                // Marker that falls between FPDUs
                out.putShort((short) 0);
                out.putShort((short) ((at == 0 ? 0 : at - headerWire) + pointerDelta));
                nextMarker += MpaFraming.MARKER_SPAN;
            }
        }
    }
}
