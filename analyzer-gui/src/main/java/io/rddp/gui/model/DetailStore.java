package io.rddp.gui.model;

import io.rddp.decode.FieldSink;
import io.rddp.decode.FieldSpans;
import io.rddp.decode.FrameHeaderFields;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduFields;
import io.rddp.decode.PduSummary;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaFields;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.tcp.FrameHeaders;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the window shows of each PDU beyond the index, kept in a temporary file rather than the heap. Most FPDUs are
 * kept as what the decoder started from ({@link #appendPdu}, {@link PduCodec}: about 200 bytes) and described when
 * read; the rest as the list's text columns, the first octets of the PDU and its field tree as the field registry
 * described it ({@link #appendDescribed}: the same {@link FieldSink} calls the CLI's {@code -V} and JSON see,
 * recorded and replayed; 300 to 500 bytes). Keys, labels, protocols and endpoints are stored once in a table, values
 * as variable-length numbers, the frame's headers as their octets.
 * <p>
 * One thread appends ({@link #append}); any thread reads records below the last {@link #flush()}.
 */
public final class DetailStore implements Closeable {
    private static final int BEGIN = 1, END = 2, BEGIN_LIST = 3, END_LIST = 4, NUMBER = 5, U64 = 6, BOOL = 7,
            TEXT = 8, HEX = 9, TIME = 10, HEADERS = 11, ID32 = 12, HEX_NUMBER = 13, ADDRESS = 14, END_RECORD = 0;
    /** A record's first octet: a described field tree, or an FPDU kept as its octets ({@link PduCodec}). */
    private static final int TREE = 0, PDU = 1;
    private static final int MAX_NAMES = 60000;
    /** Connections whose PDUs may be kept as octets; the PDUs of any beyond keep their described fields. */
    static final int MAX_CONNECTIONS = 1 << 16;
    private static final int INLINE = 0xFFFF;
    private static final String NULL = "\u0000";

    /** The list columns and octets of one PDU. */
    public record Header(String protocol, String info, String source, String destination, byte[] bytes) {
    }

    private final Path file;
    private final FileChannel channel;
    private final DataOutputStream out;
    private long written;
    /** The writer's ids of the names (only the appending thread uses it). */
    private final Map<String, Integer> ids = new HashMap<>();
    /** The names by id: the writer adds, any thread reads, under the store's lock. */
    private final List<String> names = new ArrayList<>();
    /*
     * The ids of keys and labels seen, by the strings' identities: the field registry hands out the same constant
     * strings every time, and comparing references costs less than hashing and comparing texts, some 40 times a PDU.
     */
    private static final int REMEMBERED = 1024;
    private final String[] seenKey = new String[REMEMBERED];
    private final String[] seenLabel = new String[REMEMBERED];
    private final int[] seenIds = new int[REMEMBERED];
    private final RecordBuffer recordOut = new RecordBuffer();
    private final StringBuilder info = new StringBuilder(160);
    private final java.util.concurrent.ConcurrentHashMap<Integer, PduCodec.Connection> connections =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final Recorder recorder = new Recorder();

    public DetailStore() throws IOException {
        file = Files.createTempFile("rddp-gui-", ".fields");
        file.toFile().deleteOnExit();
        channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16));
    }

    public Path file() {
        return file;
    }

    /** Bytes in the file. */
    public synchronized long size() {
        return written;
    }

    /** A sink that records a field tree into the record being built; call {@link #append} after describing. */
    public FieldSink begin(String protocol, CharSequence info, String source, String destination, byte[] bytes)
            throws IOException {
        recordOut.reset();
        recordOut.writeByte(TREE);
        writeName(protocol);
        recordOut.writeUTF(info.length() > 20000 ? info.subSequence(0, 20000) : info);
        writeName(source);
        writeName(destination);
        recordOut.writeShort(bytes.length);
        recordOut.write(bytes, 0, bytes.length);
        return recorder;
    }

    /**
     * Records the frame's headers at this point of the tree as their values ({@link HeaderCodec}): their layers are
     * described when the record is replayed.
     */
    public void headers(FrameHeaders h) {
        recordOut.writeByte(HEADERS);
        HeaderCodec.write(h, recordOut);
    }

    /**
     * Writes {@code pdu} as its framing and header octets when it can be read back to the same fields
     * ({@link PduCodec#fits}), returning its offset; else returns -1 and writes nothing (then describe it with
     * {@link #begin}). The row, tree and filter make its fields when they read it.
     */
    public long appendPdu(Pdu pdu) throws IOException {
        if (!PduCodec.fits(pdu)) return -1;
        if (!connections.containsKey(pdu.stream())) {
            if (connections.size() >= MAX_CONNECTIONS) return -1;
            connections.put(pdu.stream(), PduCodec.Connection.of(pdu.connection()));
        }
        recordOut.reset();
        recordOut.writeByte(PDU);
        PduCodec.write(pdu, recordOut);
        return write();
    }

    /**
     * Writes {@code pdu} as its described fields: the list's columns, the first {@link CaptureSession#BYTES_KEPT}
     * octets and the field tree, with what RPC-over-RDMA made of it; returns its offset.
     */
    public long appendDescribed(Pdu pdu, RpcRdmaMessage message, ChunkMove move) throws IOException {
        String protocol = RpcRdmaFields.protocol(message);
        if (protocol == null) protocol = PduSummary.protocol(pdu);
        info.setLength(0);
        PduSummary.info(pdu, info);
        RpcRdmaFields.info(message, move, info);
        FieldSink rec = begin(protocol, info, pdu.source().toString(), pdu.destination().toString(),
                FieldSpans.bytes(pdu, CaptureSession.BYTES_KEPT));
        PduFields.describeFrame(pdu, rec);
        if (pdu.headers() != null) headers(pdu.headers());
        PduFields.describeLayers(pdu, rec);
        RpcRdmaFields.describe(message, move, rec);
        return append();
    }

    /** Ends the record begun last and writes it; returns its offset. */
    public long append() throws IOException {
        recordOut.writeByte(END_RECORD);
        return write();
    }

    private long write() throws IOException {
        synchronized (this) {
            long at = written;
            out.writeInt(recordOut.size());
            out.write(recordOut.array(), 0, recordOut.size());
            written += 4 + recordOut.size();
            return at;
        }
    }

    /** Makes every record appended so far readable. */
    public synchronized void flush() throws IOException {
        out.flush();
    }

    private byte[] read(long offset) throws IOException {
        ByteBuffer len = ByteBuffer.allocate(4);
        readFully(len, offset);
        ByteBuffer b = ByteBuffer.allocate(len.getInt(0));
        readFully(b, offset + 4);
        return b.array();
    }

    private void readFully(ByteBuffer b, long offset) throws IOException {
        while (b.hasRemaining()) {
            if (channel.read(b, offset + b.position()) < 0) throw new EOFException("record at " + offset + " cut short");
        }
    }

    public Header header(long offset) throws IOException {
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(read(offset)));
        return record(in, null);
    }

    /** Reads a record's header, and when {@code sink} is not null replays its field tree into it. */
    private Header record(DataInputStream in, FieldSink sink) throws IOException {
        int kind = in.readUnsignedByte();
        if (kind == PDU) {
            PduCodec.Read r = PduCodec.read(in, connections::get);
            Pdu pdu = r.pdu();
            if (sink != null) PduFields.describe(pdu, sink);
            return new Header(PduSummary.protocol(pdu), PduSummary.info(pdu, new StringBuilder(96)).toString(),
                    pdu.source().toString(), pdu.destination().toString(), r.bytes());
        }
        if (kind != TREE) throw new IOException("bad field record kind " + kind);
        Header h = header(in);
        if (sink != null) replayTree(in, sink);
        return h;
    }

    private Header header(DataInputStream in) throws IOException {
        String protocol = name(in);
        String info = in.readUTF();
        String src = name(in);
        String dst = name(in);
        byte[] bytes = new byte[in.readUnsignedShort()];
        in.readFully(bytes);
        return new Header(protocol, info, src, dst, bytes);
    }

    /** Replays the field tree of the record at {@code offset} into {@code sink}; returns its header. */
    public Header replay(long offset, FieldSink sink) throws IOException {
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(read(offset)));
        return record(in, sink);
    }

    /**
     * Reads records in file order from {@code offset} on, handing each one's offset, header and (replayed into
     * {@code sink}) field tree to {@code each}; stops at {@code end} or when {@code each} returns false. Sequential
     * reads: how a filter goes over a large capture.
     */
    public void scan(long offset, long end, FieldSink sink, RecordVisitor each) throws IOException {
        InputStream raw = new BufferedInputStream(Channels.newInputStream(channel.position(offset)), 1 << 16);
        // positional reads elsewhere do not move the channel, but another scan would: scans are serialised
        synchronized (this) {
            DataInputStream in = new DataInputStream(raw);
            long at = offset;
            byte[] buf = new byte[1024];
            while (at < end) {
                int n = in.readInt();
                if (buf.length < n) buf = new byte[n];
                in.readFully(buf, 0, n);
                DataInputStream rec = new DataInputStream(new java.io.ByteArrayInputStream(buf, 0, n));
                Header h = record(rec, sink);
                if (!each.visit(at, h)) return;
                at += 4 + n;
            }
        }
    }

    /** Called by {@link #scan} per record. */
    public interface RecordVisitor {
        boolean visit(long offset, Header header) throws IOException;
    }

    private void replayTree(DataInputStream in, FieldSink sink) throws IOException {
        while (true) {
            int op = in.readUnsignedByte();
            if (op == END_RECORD) return;
            switch (op) {
                case END -> sink.end();
                case END_LIST -> sink.endList();
                case HEADERS -> FrameHeaderFields.describe(HeaderCodec.read(in), sink);
                default -> {
                    String key = name(in);
                    String label = name(in);
                    switch (op) {
                        case BEGIN -> sink.begin(key, label);
                        case BEGIN_LIST -> sink.beginList(key, label);
                        case NUMBER -> sink.number(key, label, readVarLong(in));
                        case U64 -> sink.unsigned64(key, label, readVarLong(in));
                        case ID32 -> sink.id32(key, label, readVarLong(in));
                        case HEX_NUMBER -> sink.hexNumber(key, label, readVarLong(in), in.readUnsignedByte());
                        case ADDRESS -> {
                            byte[] b = new byte[in.readUnsignedByte()];
                            in.readFully(b);
                            sink.address(key, label, b);
                        }
                        case BOOL -> sink.bool(key, label, in.readBoolean());
                        case TEXT -> sink.text(key, label, in.readUTF());
                        // the text FieldSink.time makes, made when shown rather than for every PDU loaded
                        case TIME -> sink.text(key, label, PduFields.epochSeconds(readVarLong(in)));
                        case HEX -> {
                            byte[] b = new byte[in.readUnsignedShort()];
                            in.readFully(b);
                            sink.hex(key, label, b);
                        }
                        default -> throw new IOException("bad field record op " + op);
                    }
                }
            }
        }
    }

    private String name(DataInputStream in) throws IOException {
        int id = in.readUnsignedShort();
        String s = id == INLINE ? in.readUTF() : nameOf(id);
        return NULL.equals(s) ? null : s;
    }

    private synchronized String nameOf(int id) {
        return names.get(id);
    }

    /** The id of a name, added to the table when new; {@link #INLINE} once the table is full. Writer only. */
    private int idOf(String s) {
        Integer id = ids.get(s);
        if (id != null) return id;
        if (ids.size() >= MAX_NAMES) return INLINE;
        synchronized (this) {
            ids.put(s, names.size());
            names.add(s);
            return names.size() - 1;
        }
    }

    private void writeName(String s) throws IOException {
        if (s == null) s = NULL;
        int id = idOf(s);
        recordOut.writeShort(id);
        if (id == INLINE) recordOut.writeUTF(s);
    }

    /** A field's key and label as their ids: by the strings' identities when seen before, else by their texts. */
    private void writeKeyAndLabel(String key, String label) throws IOException {
        if (key == null || label == null) {
            writeName(key);
            writeName(label);
            return;
        }
        int slot = (System.identityHashCode(key) * 31 + System.identityHashCode(label)) & (REMEMBERED - 1);
        if (seenKey[slot] == key && seenLabel[slot] == label) {
            int both = seenIds[slot];
            recordOut.writeShort(both >>> 16);
            recordOut.writeShort(both & 0xFFFF);
            return;
        }
        int k = idOf(key), l = idOf(label);
        recordOut.writeShort(k);
        if (k == INLINE) recordOut.writeUTF(key);
        recordOut.writeShort(l);
        if (l == INLINE) recordOut.writeUTF(label);
        if (k != INLINE && l != INLINE) { // an inline name is written out every time: never remembered
            seenKey[slot] = key;
            seenLabel[slot] = label;
            seenIds[slot] = k << 16 | l;
        }
    }

    static long readVarLong(DataInputStream in) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            int b = in.readUnsignedByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) return v;
        }
        throw new IOException("bad number in a field record");
    }

    private final class Recorder implements FieldSink {
        private void op(int op, String key, String label) {
            try {
                recordOut.writeByte(op);
                writeKeyAndLabel(key, label);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public void begin(String key, String label) {
            op(BEGIN, key, label);
        }

        @Override
        public void end() {
            recordOut.writeByte(END);
        }

        @Override
        public void beginList(String key, String label) {
            op(BEGIN_LIST, key, label);
        }

        @Override
        public void endList() {
            recordOut.writeByte(END_LIST);
        }

        @Override
        public void number(String key, String label, long value) {
            op(NUMBER, key, label);
            recordOut.writeVarLong(value);
        }

        @Override
        public void unsigned64(String key, String label, long value) {
            op(U64, key, label);
            recordOut.writeVarLong(value);
        }

        // kept as what they are, not as the number or text a sink that does not care takes: the filter compares
        // addresses as addresses and the tree shows identifiers in hex
        @Override
        public void id32(String key, String label, long value) {
            op(ID32, key, label);
            recordOut.writeVarLong(value);
        }

        @Override
        public void hexNumber(String key, String label, long value, int digits) {
            op(HEX_NUMBER, key, label);
            recordOut.writeVarLong(value);
            recordOut.writeByte(digits);
        }

        @Override
        public void address(String key, String label, byte[] octets) {
            op(ADDRESS, key, label);
            recordOut.writeByte(octets.length);
            recordOut.write(octets, 0, octets.length);
        }

        @Override
        public void bool(String key, String label, boolean value) {
            op(BOOL, key, label);
            recordOut.writeBoolean(value);
        }

        @Override
        public void boolOrNull(String key, String label, Boolean value) {
            if (value != null) bool(key, label, value);
        }

        @Override
        public void text(String key, String label, String value) {
            op(TEXT, key, label);
            try {
                recordOut.writeUTF(value.length() > 8000 ? value.substring(0, 8000) + "…" : value);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        /** Kept as the number: {@link #replayTree} hands the sink the text {@link FieldSink#time} would have. */
        @Override
        public void time(String key, String label, long nanos) {
            op(TIME, key, label);
            recordOut.writeVarLong(nanos);
        }

        @Override
        public void hex(String key, String label, byte[] value) {
            op(HEX, key, label);
            int n = Math.min(value.length, 4096);
            recordOut.writeShort(n);
            recordOut.write(value, 0, n);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            out.close();
        } finally {
            channel.close();
            Files.deleteIfExists(file);
        }
    }

}
