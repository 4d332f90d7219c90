package io.rddp.capture;

import io.rddp.MalformedException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static io.rddp.capture.Pcapng.*;

/**
 * Reads pcapng (draft-ietf-opsawg-pcapng) from a {@link ByteSource}, handing out frames as views of its buffer.
 *
 * <p>Packets come from Enhanced (§4.3), Simple (§4.4) and obsolete Packet Blocks (Appendix A). Name resolution,
 * statistics, decryption secrets and unknown blocks are skipped. Blocks that tshark 4.0 turns into records of their
 * own (systemd journal entries, Sysdig events, Custom Blocks) are skipped too but use up a frame number, so that
 * frame numbers stay equal to tshark's.
 *
 * <p>A Simple Packet Block has no timestamp; its frame gets the timestamp of the packet before it (0 for the first),
 * which keeps time monotonic for the layers above. tshark shows no time for it.
 */
final class PcapngReader extends SourceReader {
    /** Interface IDs are 32 bits; this bounds the memory a hostile file can make the reader hold. */
    static final int MAX_INTERFACES = 1 << 16;

    private final List<InterfaceDescription> interfaces = new ArrayList<>();

    private ByteOrder order = ByteOrder.BIG_ENDIAN;
    /** A section of a major version other than 1 is skipped as a whole (§3.4). */
    private boolean skipSection;
    private int sections;
    private long lastTimestamp;
    private byte[] scratch;

    /**
     * Reads the first Section Header Block.
     *
     * @param compressed the stream under the decompressor, or null when {@code source} reads the file itself
     * @param size       size of the file as stored (compressed for .gz), or -1
     */
    PcapngReader(ByteSource source, String name, String format, long size, CountingInputStream compressed)
            throws IOException {
        super(source, name, format, size, compressed, 0);
        int have = fill(0, BLOCK_OVERHEAD, 0);
        if (have < BLOCK_OVERHEAD || buffer.getInt((int) -base) != TYPE_SHB) {
            throw fail("a pcapng file must start with a Section Header Block (draft-ietf-opsawg-pcapng §3.4)", 0, 0);
        }
        readSectionHeader(0);
    }

    int sections() {
        return sections;
    }

    @Override
    public boolean next(Frame frame) throws IOException {
        if (failure != null) {
            throw failure;
        }
        while (true) {
            long offset = position;
            if (offset + BLOCK_BODY > end) {
                int have = fill(offset, BLOCK_BODY, 0);
                if (have < BLOCK_BODY) {
                    if (have == 0) return false;
                    throw fail("file ends " + have + " bytes into a block header", offset, 0);
                }
            }
            int type = buffer.getInt((int) (offset - base) + BLOCK_TYPE);
            if (type == TYPE_SHB) {
                readSectionHeader(offset);
                continue;
            }
            boolean packet = type == TYPE_EPB || type == TYPE_SPB || type == TYPE_OPB;
            long frameNumber = packet || takesFrameNumber(type) ? count + 1 : 0;
            int length = blockLength(offset, frameNumber, minimumLength(type));
            int i = (int) (offset - base);
            position = offset + length;
            if (skipSection) {
                continue;
            }
            if (packet) {
                readPacket(frame, type, i, length, offset);
                return true;
            }
            if (type == TYPE_IDB) {
                addInterface(i, offset);
            } else if (frameNumber != 0) {
                count++;
            }
        }
    }

    /** Record types of tshark 4.0's pcapng reader other than packets; each is a frame in tshark's numbering. */
    private static boolean takesFrameNumber(int type) {
        switch (type) {
            case 0x00000009:                 // systemd Journal Export Block
            case 0x00000204: case 0x00000208: // Sysdig event blocks
            case 0x00000216: case 0x00000217:
            case 0x00000221: case 0x00000222:
            case TYPE_CB_COPY: case TYPE_CB_NO_COPY: // §4.8 Custom Block
                return true;
            default:
                return false;
        }
    }

    private static int minimumLength(int type) {
        switch (type) {
            case TYPE_IDB: return IDB_MIN_LENGTH;
            case TYPE_EPB: case TYPE_OPB: return EPB_MIN_LENGTH;
            case TYPE_SPB: return SPB_MIN_LENGTH;
            default: return BLOCK_OVERHEAD;
        }
    }

    /**
     * Checks the block at {@code offset} (§3.1: total length a multiple of 4, covering type and both lengths,
     * repeated at the end) and makes all of it available in the buffer. Returns its total length.
     */
    private int blockLength(long offset, long frameNumber, int minimum) throws CaptureException {
        long length = buffer.getInt((int) (offset - base) + BLOCK_LENGTH) & 0xFFFFFFFFL;
        if (length % 4 != 0) {
            throw fail("block total length " + length + " is not a multiple of 4", offset, frameNumber);
        }
        if (length < minimum) {
            throw fail("block total length " + length + " is less than the " + minimum + " bytes of a block of type 0x"
                    + Integer.toHexString(buffer.getInt((int) (offset - base))), offset, frameNumber);
        }
        if (length > CaptureReaders.MAX_RECORD) {
            throw fail("block total length " + length + " is over the limit of " + CaptureReaders.MAX_RECORD,
                    offset, frameNumber);
        }
        if (offset + length > end) {
            int have = fill(offset, (int) length, frameNumber);
            if (have < length) {
                throw fail(source.atEof()
                        ? "block total length " + length + " runs past the end of the file, " + have
                        + " bytes after the block start"
                        : "block of " + length + " bytes is larger than the read window of " + source.maxSpan()
                        + " bytes", offset, frameNumber);
            }
        }
        int i = (int) (offset - base);
        long trailing = buffer.getInt(i + (int) length - 4) & 0xFFFFFFFFL;
        if (trailing != length) {
            throw fail("trailing block total length " + trailing + " differs from the leading " + length,
                    offset, frameNumber);
        }
        return (int) length;
    }

    private void readSectionHeader(long offset) throws CaptureException {
        if (offset + BLOCK_OVERHEAD > end && fill(offset, BLOCK_OVERHEAD, 0) < BLOCK_OVERHEAD) {
            throw fail("file ends inside a Section Header Block", offset, 0);
        }
        try {
            order = SectionHeader.byteOrder(buffer, (int) (offset - base));
        } catch (MalformedException e) {
            throw fail(e.getMessage(), offset, 0);
        }
        buffer.order(order);
        int length = blockLength(offset, 0, SHB_MIN_LENGTH);
        SectionHeader shb;
        try {
            shb = SectionHeader.parse(buffer.slice((int) (offset - base), length));
        } catch (MalformedException e) {
            throw fail(e.getMessage(), offset, 0);
        }
        sections++;
        interfaces.clear();         // §4.2: interface IDs are only valid inside their section
        skipSection = shb.versionMajor() != 1;
        position = offset + length;
    }

    private void addInterface(int i, long offset) throws CaptureException {
        if (interfaces.size() == MAX_INTERFACES) {
            throw fail("more than " + MAX_INTERFACES + " interfaces in one section", offset, 0);
        }
        try {
            interfaces.add(InterfaceDescription.parse(buffer.duplicate().order(order).position(i)));
        } catch (MalformedException e) {
            throw fail("Interface Description Block: " + e.getMessage(), offset, 0);
        }
    }

    private void readPacket(Frame frame, int type, int i, int length, long offset) throws CaptureException {
        ByteBuffer b = buffer;
        long number = count + 1;
        long interfaceId;
        long captured;
        long original;
        int data;
        if (type == TYPE_SPB) {
            interfaceId = 0;        // §4.4: an SPB belongs to the first interface of the section
            original = b.getInt(i + SPB_ORIGINAL_LENGTH) & 0xFFFFFFFFL;
            data = SPB_DATA;
        } else {
            // §4.3: 32-bit Interface ID; Appendix A: 16-bit Interface ID, then a 16-bit Drops Count.
            interfaceId = type == TYPE_EPB ? b.getInt(i + EPB_INTERFACE) & 0xFFFFFFFFL
                    : b.getShort(i + EPB_INTERFACE) & 0xFFFF;
            original = b.getInt(i + EPB_ORIGINAL_LENGTH) & 0xFFFFFFFFL;
            data = EPB_DATA;
        }
        if (interfaceId >= interfaces.size()) {
            throw fail((type == TYPE_SPB ? "Simple Packet Block" : "packet") + " refers to interface " + interfaceId
                    + " but the section has " + interfaces.size() + " interface(s)", offset, number);
        }
        InterfaceDescription itf = interfaces.get((int) interfaceId);
        int room = length - data - 4;
        if (type == TYPE_SPB) {
            // §4.4: the captured length is not stored; it is the original length cut to SnapLen, and never more
            // than the block holds.
            captured = original;
            if (itf.snapLen() != 0) captured = Math.min(captured, itf.snapLen());
            captured = Math.min(captured, room);
        } else {
            captured = b.getInt(i + EPB_CAPTURED_LENGTH) & 0xFFFFFFFFL;
            if (captured > room) {
                throw fail("captured length " + captured + " does not fit in a block of " + length + " bytes",
                        offset, number);
            }
        }
        String comment = null;
        long timestamp;
        if (type == TYPE_SPB) {
            timestamp = lastTimestamp;
        } else {
            int optionsStart = i + data + pad4((int) captured);
            int optionsEnd = i + length - 4;
            if (optionsStart < optionsEnd) {
                comment = comment(b, optionsStart, optionsEnd, offset, number);
            }
            long high = b.getInt(i + EPB_TIMESTAMP_HIGH) & 0xFFFFFFFFL;
            long low = b.getInt(i + EPB_TIMESTAMP_LOW) & 0xFFFFFFFFL;
            timestamp = itf.toNanos(high << 32 | low);
        }
        count = number;
        lastTimestamp = timestamp;
        frame.number = number;
        frame.timestampNanos = timestamp;
        frame.linkType = itf.linkType();
        frame.originalLength = original > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) original;
        frame.fileOffset = offset;
        frame.interfaceId = (int) interfaceId;
        frame.data = b.slice(i + data, (int) captured);
        frame.comment = comment;
    }

    /** opt_comment (§3.5) values of a packet block, joined by newlines when repeated; null when none. */
    private String comment(ByteBuffer b, int start, int end, long offset, long number) throws CaptureException {
        String comment = null;
        try {
            for (int o = start, n; (n = optionLength(b, o, end)) >= 0; o += 4 + pad4(n)) {
                if ((b.getShort(o) & 0xFFFF) == OPT_COMMENT) {
                    if (scratch == null) scratch = new byte[0x10000];
                    String s = string(b, o + 4, n, scratch);
                    comment = comment == null ? s : comment + "\n" + s;
                }
            }
        } catch (MalformedException e) {
            throw fail("packet options: " + e.getMessage(), offset, number);
        }
        return comment;
    }

    @Override
    protected ByteOrder order() {
        return order;
    }
}
