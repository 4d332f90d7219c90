package io.rddp.capture;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.rddp.capture.Pcapng.*;

/**
 * Writes a pcapng file (draft-ietf-opsawg-pcapng): one Section Header Block, an Interface Description Block per
 * interface with nanosecond timestamps (if_tsresol = 9), and an Enhanced Packet Block per packet with an optional
 * opt_comment.
 */
public final class PcapngWriter implements CaptureWriter {
    public static final int DEFAULT_SNAPLEN = PcapReader.MIN_RECORD_LIMIT;
    /** Leaves room for the block's fields and a 64 KiB comment within what readers accept. */
    public static final int MAX_SNAPLEN = CaptureReaders.MAX_RECORD - (1 << 17);

    private final OutputSink sink;
    private final ByteBuffer scratch;
    private final List<InterfaceDescription> interfaces = new ArrayList<>();

    /** A little-endian file without interfaces yet; {@link #writeFrame} adds them as link types appear. */
    public PcapngWriter(OutputStream out) throws IOException {
        this(out, ByteOrder.LITTLE_ENDIAN);
    }

    /** A little-endian file with interface 0 of the given link type. */
    public PcapngWriter(OutputStream out, int linkType) throws IOException {
        this(out, ByteOrder.LITTLE_ENDIAN);
        addInterface(linkType);
    }

    public PcapngWriter(OutputStream out, ByteOrder order) throws IOException {
        this.sink = new OutputSink(out);
        this.scratch = ByteBuffer.allocate(256).order(order);
        new SectionHeader(order, 1, 0, -1, "rddp").writeTo(scratch);
        sink.write(scratch);
    }

    /** A new file at {@code path} with interface 0 of the given link type, gzip-compressed for a ".gz" name. */
    public static PcapngWriter create(Path path, int linkType) throws IOException {
        OutputStream out = OutputSink.create(path);
        try {
            return new PcapngWriter(out, linkType);
        } catch (IOException | RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** Writes an Interface Description Block with the default SnapLen; returns the new interface's ID. */
    public int addInterface(int linkType) throws IOException {
        return addInterface(linkType, DEFAULT_SNAPLEN);
    }

    public int addInterface(int linkType, int snapLen) throws IOException {
        if (linkType < 0 || linkType > 0xFFFF) {
            throw new IllegalArgumentException("link type " + linkType + " is not 16 bits");
        }
        if (snapLen < 1 || snapLen > MAX_SNAPLEN) {
            throw new IllegalArgumentException("SnapLen must be 1.." + MAX_SNAPLEN + ", was " + snapLen);
        }
        InterfaceDescription idb = new InterfaceDescription(linkType, snapLen, InterfaceDescription.NANOSECONDS, 0);
        scratch.clear();
        idb.writeTo(scratch);
        sink.write(scratch);
        interfaces.add(idb);
        return interfaces.size() - 1;
    }

    /** The first interface with this link type, added when there is none. */
    public int interfaceFor(int linkType) throws IOException {
        for (int i = 0; i < interfaces.size(); i++) {
            if (interfaces.get(i).linkType() == linkType) return i;
        }
        return addInterface(linkType);
    }

    /** Writes to interface 0, which must exist. */
    @Override
    public void writePacket(long timestampNanos, ByteBuffer data, int originalLength, String comment)
            throws IOException {
        writePacket(0, timestampNanos, data, originalLength, comment);
    }

    @Override
    public void writeFrame(Frame frame, String comment) throws IOException {
        writePacket(interfaceFor(frame.linkType), frame.timestampNanos, frame.data, frame.originalLength, comment);
    }

    /** Writes an Enhanced Packet Block (§4.3) on the given interface. */
    public void writePacket(int interfaceId, long timestampNanos, ByteBuffer data, int originalLength,
                            String comment) throws IOException {
        if (interfaceId < 0 || interfaceId >= interfaces.size()) {
            throw new IllegalArgumentException("no interface " + interfaceId + "; " + interfaces.size() + " added");
        }
        int captured = data.remaining();
        if (timestampNanos < 0) {
            throw new IllegalArgumentException("negative timestamp " + timestampNanos);
        }
        if (captured > interfaces.get(interfaceId).snapLen()) {
            throw new IllegalArgumentException("packet of " + captured + " bytes exceeds the SnapLen "
                    + interfaces.get(interfaceId).snapLen());
        }
        if (originalLength < captured) {
            throw new IllegalArgumentException("original length " + originalLength + " < captured " + captured);
        }
        byte[] text = comment == null ? null : comment.getBytes(StandardCharsets.UTF_8);
        if (text != null && text.length > 0xFFFF) {
            throw new IllegalArgumentException("comment of " + text.length + " bytes exceeds an option's 65535");
        }
        int options = text == null ? 0 : 4 + pad4(text.length) + 4;
        int length = EPB_DATA + pad4(captured) + options + 4;
        scratch.clear();
        scratch.putInt(TYPE_EPB);
        scratch.putInt(length);
        scratch.putInt(interfaceId);
        scratch.putInt((int) (timestampNanos >>> 32));   // if_tsresol 9: one unit is 1 ns
        scratch.putInt((int) timestampNanos);
        scratch.putInt(captured);
        scratch.putInt(originalLength);
        sink.write(scratch);
        sink.writeData(data);
        sink.pad(pad4(captured) - captured);
        scratch.clear();
        if (text != null) {
            scratch.putShort((short) OPT_COMMENT);
            scratch.putShort((short) text.length);
            sink.write(scratch);
            sink.writeData(ByteBuffer.wrap(text));
            sink.pad(pad4(text.length) - text.length);
            scratch.clear();
            putEndOfOptions(scratch);
        }
        scratch.putInt(length);
        sink.write(scratch);
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
