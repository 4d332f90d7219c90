package io.rddp.capture;

import io.rddp.MalformedException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static io.rddp.capture.PcapRecord.*;

/** Reads pcap (draft-ietf-opsawg-pcap) from a {@link ByteSource}, handing out frames as views of its buffer. */
final class PcapReader extends SourceReader {
    /**
     * Captured lengths up to this are accepted whatever the SnapLen says: Wireshark accepts 262144 for most link
     * types (WTAP_MAX_PACKET_SIZE_STANDARD) and some writers put a SnapLen below their real packets.
     */
    static final int MIN_RECORD_LIMIT = 262144;

    private final PcapFileHeader header;
    private final int linkType;
    private final long fractionToNanos;
    private final long recordLimit;


    /**
     * @param compressed the stream under the decompressor, or null when {@code source} reads the file itself
     * @param size       size of the file as stored (compressed for .gz), or -1
     */
    PcapReader(ByteSource source, String name, String format, long size, CountingInputStream compressed)
            throws IOException {
        super(source, name, format, size, compressed, PcapFileHeader.LENGTH);
        int have = fill(0, PcapFileHeader.LENGTH, 0);
        if (have < PcapFileHeader.LENGTH) {
            throw fail("file ends after " + have + " bytes, inside the " + PcapFileHeader.LENGTH
                    + "-byte pcap file header", 0, 0);
        }
        try {
            header = PcapFileHeader.parse(buffer.duplicate().position((int) -base));
        } catch (MalformedException e) {
            throw fail(e.getMessage(), 0, 0);
        }
        if (header.versionMajor() != 2) {
            throw fail("pcap version " + header.versionMajor() + "." + header.versionMinor()
                    + " is not 2.x (draft-ietf-opsawg-pcap §4)", 0, 0);
        }
        linkType = header.linkType();
        fractionToNanos = header.nanos() ? 1 : 1000;
        recordLimit = Math.min(CaptureReaders.MAX_RECORD, Math.max(header.snapLen(), MIN_RECORD_LIMIT));
        buffer.order(header.order());
    }

    PcapFileHeader header() {
        return header;
    }

    @Override
    public boolean next(Frame frame) throws IOException {
        if (failure != null) {
            throw failure;
        }
        long offset = position;
        if (offset + HEADER > end) {
            int have = fill(offset, HEADER, count + 1);
            if (have < HEADER) {
                if (have == 0) return false;
                throw fail("file ends " + have + " bytes into a " + HEADER + "-byte record header", offset, count + 1);
            }
        }
        int i = (int) (offset - base);
        long captured = buffer.getInt(i + CAPTURED_LENGTH) & 0xFFFFFFFFL;
        if (captured > recordLimit) {
            throw fail("record claims " + captured + " captured bytes, more than the limit of " + recordLimit
                    + " (SnapLen " + header.snapLen() + ")", offset, count + 1);
        }
        int length = HEADER + (int) captured;
        if (offset + length > end) {
            int have = fill(offset, length, count + 1);
            if (have < length) {
                throw fail(source.atEof()
                        ? "record of " + captured + " captured bytes runs past the end of the file, which has only "
                        + (have - HEADER) + " of them"
                        : "record of " + length + " bytes is larger than the read window of " + source.maxSpan()
                        + " bytes", offset, count + 1);
            }
            i = (int) (offset - base);
        }
        ByteBuffer b = buffer;
        long seconds = b.getInt(i + TIMESTAMP_SECONDS) & 0xFFFFFFFFL;
        long fraction = b.getInt(i + TIMESTAMP_FRACTION) & 0xFFFFFFFFL;
        int original = b.getInt(i + ORIGINAL_LENGTH);
        frame.number = ++count;
        frame.timestampNanos = seconds * 1_000_000_000L + fraction * fractionToNanos;
        frame.linkType = linkType;
        frame.originalLength = original < 0 ? Integer.MAX_VALUE : original;
        frame.fileOffset = offset;
        frame.interfaceId = 0;
        frame.data = b.slice(i + HEADER, (int) captured);
        frame.comment = null;
        position = offset + length;
        return true;
    }

    @Override
    protected ByteOrder order() {
        return header != null ? header.order() : ByteOrder.BIG_ENDIAN;
    }
}
