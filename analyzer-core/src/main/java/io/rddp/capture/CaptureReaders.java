package io.rddp.capture;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.GZIPInputStream;

/**
 * Opens capture files. The format is told from the first bytes, never from the name: pcap (magic 0xA1B2C3D4 or
 * 0xA1B23C4D, either byte order), pcapng (Section Header Block 0x0A0D0D0A) and gzip (0x1F 0x8B) of either.
 *
 * <p>Plain files are read in windows (one positional read each) and frames are views of the window: no copy
 * per frame, no allocation beyond one small view object per frame. Streams and gzip are read into one reusable array.
 */
public final class CaptureReaders {
    /** No record or block may be longer than this (256 MiB); longer lengths are taken to be lies. */
    public static final int MAX_RECORD = 256 << 20;

    private static final int GZIP_MAGIC = 0x1F8B;
    /** At most this many decompressed bytes of frames before corrupt gzip data are lost (see StreamByteSource). */
    static final int GZIP_READ_AHEAD = 8192;

    private CaptureReaders() {
    }

    /** Opens a capture file; a FIFO or device such as /dev/stdin is read as a stream. */
    public static CaptureReader open(Path path) throws IOException {
        return open(path, FileWindowSource.DEFAULT_WINDOW);
    }

    /**
     * As {@link #open(Path)} with a read window of {@code window} bytes: tests make it tiny, so that a small capture
     * moves through many windows. A record larger than the window cannot be read.
     */
    public static CaptureReader open(Path path, long window) throws IOException {
        String name = path.toString();
        if (!Files.isRegularFile(path)) {
            return open(Files.newInputStream(path), name);
        }
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        try {
            long size = channel.size();
            ByteBuffer head = ByteBuffer.allocate(4);
            while (head.hasRemaining() && channel.read(head, head.position()) > 0) {
                // a regular file returns what it has; loop only for short reads
            }
            if (head.position() >= 2 && (head.getShort(0) & 0xFFFF) == GZIP_MAGIC) {
                channel.close();
                CountingInputStream counted = new CountingInputStream(Files.newInputStream(path));
                return gzip(counted, name, size);
            }
            FileWindowSource source = new FileWindowSource(channel, window);
            return plain(source, name, head, size, "", null);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Reads a capture from a stream, e.g. stdin. The reader owns the stream and closes it.
     *
     * @param name used in error messages, e.g. "-" or "&lt;stdin&gt;"
     */
    public static CaptureReader open(InputStream in, String name) throws IOException {
        return open(in, name, StreamByteSource.DEFAULT_BUFFER);
    }

    static CaptureReader open(InputStream in, String name, int initialBuffer) throws IOException {
        try {
            PushbackInputStream pushback = new PushbackInputStream(in, 4);
            byte[] magic = new byte[4];
            int n = 0;
            for (int r; n < 4 && (r = pushback.read(magic, n, 4 - n)) > 0; ) n += r;
            pushback.unread(magic, 0, n);
            ByteBuffer head = ByteBuffer.wrap(magic, 0, n).position(n);
            if (n >= 2 && (head.getShort(0) & 0xFFFF) == GZIP_MAGIC) {
                return gzip(new CountingInputStream(pushback), name, -1, initialBuffer);
            }
            StreamByteSource source = new StreamByteSource(pushback, initialBuffer, MAX_RECORD, Integer.MAX_VALUE);
            return plain(source, name, head, -1, "", null);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    private static CaptureReader gzip(CountingInputStream counted, String name, long size) throws IOException {
        return gzip(counted, name, size, StreamByteSource.DEFAULT_BUFFER);
    }

    private static CaptureReader gzip(CountingInputStream counted, String name, long size, int initialBuffer)
            throws IOException {
        StreamByteSource source;
        try {
            source = new StreamByteSource(new GZIPInputStream(counted, 1 << 16), initialBuffer, MAX_RECORD,
                    GZIP_READ_AHEAD);
        } catch (IOException e) {
            counted.close();
            CaptureException ce = new CaptureException(name + ": bad gzip header: " + e.getMessage(), 0, 0);
            ce.initCause(e);
            throw ce;
        }
        try {
            int have = source.ensure(0, 4);
            ByteBuffer head = source.buffer().duplicate().limit(have).position(have);
            return plain(source, name, head, size, "+gzip", counted);
        } catch (CaptureException e) {
            source.close();
            throw e;
        } catch (IOException e) {
            source.close();
            CaptureException ce = new CaptureException(name + ": cannot decompress: " + e.getMessage(), 0, 0);
            ce.initCause(e);
            throw ce;
        }
    }

    /** @param head the file's first bytes, position = how many there are */
    private static CaptureReader plain(ByteSource source, String name, ByteBuffer head, long size, String suffix,
                                       CountingInputStream compressed) throws IOException {
        if (head.position() < 4) {
            throw new CaptureException(name + ": file of " + head.position()
                    + " bytes is too short to be a capture", 0, 0);
        }
        int magic = head.order(ByteOrder.BIG_ENDIAN).getInt(0);
        if (magic == Pcapng.TYPE_SHB) {
            return new PcapngReader(source, name, "pcapng" + suffix, size, compressed);
        }
        if (magic == PcapFileHeader.MAGIC_MICRO || magic == PcapFileHeader.MAGIC_NANO
                || magic == Integer.reverseBytes(PcapFileHeader.MAGIC_MICRO)
                || magic == Integer.reverseBytes(PcapFileHeader.MAGIC_NANO)) {
            return new PcapReader(source, name, "pcap" + suffix, size, compressed);
        }
        throw new CaptureException(name + String.format(": magic 0x%08x is neither pcap, pcapng nor gzip", magic),
                0, 0);
    }
}
