package io.rddp.capture;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * Writes a pcap file (draft-ietf-opsawg-pcap) with micro- or nanosecond timestamps (microsecond files truncate
 * the nanoseconds). pcap holds one link type and no comments; use {@link PcapngWriter} for those.
 */
public final class PcapWriter implements CaptureWriter {
    /** The SnapLen written by default, which is also what Wireshark reads for most link types. */
    public static final int DEFAULT_SNAPLEN = PcapReader.MIN_RECORD_LIMIT;

    private final OutputSink sink;
    private final PcapFileHeader header;
    private final ByteBuffer scratch;

    /** A little-endian file with the default SnapLen. */
    public PcapWriter(OutputStream out, int linkType, boolean nanos) throws IOException {
        this(out, linkType, nanos, DEFAULT_SNAPLEN, ByteOrder.LITTLE_ENDIAN);
    }

    public PcapWriter(OutputStream out, int linkType, boolean nanos, int snapLen, ByteOrder order)
            throws IOException {
        if (linkType < 0 || linkType > 0xFFFF) {
            throw new IllegalArgumentException("link type " + linkType + " is not 16 bits");
        }
        if (snapLen < 1 || snapLen > CaptureReaders.MAX_RECORD) {
            throw new IllegalArgumentException("SnapLen must be 1.." + CaptureReaders.MAX_RECORD + ", was " + snapLen);
        }
        this.sink = new OutputSink(out);
        this.header = new PcapFileHeader(order, nanos, 2, 4, snapLen, linkType);
        this.scratch = ByteBuffer.allocate(PcapFileHeader.LENGTH).order(order);
        header.writeTo(scratch);
        sink.write(scratch);
    }

    /** A new file at {@code path}, gzip-compressed when the name ends in ".gz". */
    public static PcapWriter create(Path path, int linkType, boolean nanos) throws IOException {
        OutputStream out = OutputSink.create(path);
        try {
            return new PcapWriter(out, linkType, nanos);
        } catch (IOException | RuntimeException e) {
            out.close();
            throw e;
        }
    }

    public int linkType() {
        return header.linkType();
    }

    @Override
    public void writePacket(long timestampNanos, ByteBuffer data, int originalLength, String comment)
            throws IOException {
        int captured = data.remaining();
        if (timestampNanos < 0 || timestampNanos / 1_000_000_000L > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("timestamp " + timestampNanos + " ns is outside pcap's 32-bit seconds");
        }
        if (captured > header.snapLen()) {
            throw new IllegalArgumentException("packet of " + captured + " bytes exceeds the SnapLen "
                    + header.snapLen());
        }
        if (originalLength < captured) {
            throw new IllegalArgumentException("original length " + originalLength + " < captured " + captured);
        }
        long fraction = timestampNanos % 1_000_000_000L;
        scratch.clear();
        PcapRecord.writeHeader(scratch, timestampNanos / 1_000_000_000L,
                header.nanos() ? fraction : fraction / 1000, captured, originalLength);
        sink.write(scratch);
        sink.writeData(data);
    }

    /** @throws IllegalArgumentException when the frame's link type is not the file's */
    @Override
    public void writeFrame(Frame frame, String comment) throws IOException {
        if (frame.linkType != header.linkType()) {
            throw new IllegalArgumentException("frame " + frame.number + " has link type " + frame.linkType
                    + ", the pcap file " + header.linkType());
        }
        writePacket(frame.timestampNanos, frame.data, frame.originalLength, comment);
    }

    @Override
    public void flush() throws IOException {
        sink.flush();
    }

    @Override
    public void close() throws IOException {
        sink.close();
    }
}
