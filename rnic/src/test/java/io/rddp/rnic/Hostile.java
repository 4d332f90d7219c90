package io.rddp.rnic;

import io.rddp.rnic.link.SocketConnection;
import io.rddp.ddp.DdpSegment;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduListener;
import io.rddp.decode.StreamDecoder;
import io.rddp.mpa.FpduEncoder;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.Terminate;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The hostile side of a test: a plain {@link Socket} to the emulated RNIC that sends as much MPA, DDP and RDMAP as the
 * test wants (nothing, garbage, start frames, FPDUs built by the analyzer's encoders, no CRC, no Markers) and decodes
 * what the RNIC sends back with the analyzer's decoder.
 */
final class Hostile implements AutoCloseable {

    static final Direction OUT = Direction.CLIENT_TO_SERVER, IN = Direction.SERVER_TO_CLIENT;

    final Socket socket;
    private final StreamDecoder decoder;
    final List<Pdu> received = new CopyOnWriteArrayList<>();
    private long frame;
    private FpduEncoder encoder;
    private long sendMsn = 1, readMsn = 1;
    /** how the peer's side ended: "fin", "rst", or null while open */
    String peerEnd;

    private Hostile(Socket socket) {
        this.socket = socket;
        InetSocketAddress l = (InetSocketAddress) socket.getLocalSocketAddress();
        InetSocketAddress r = (InetSocketAddress) socket.getRemoteSocketAddress();
        TcpConnection c = SocketConnection.of(l, r);
        this.decoder = new StreamDecoder(c, new PduListener() {
            @Override
            public void onPdu(Pdu pdu) {
                if (pdu.direction() == IN) received.add(pdu);
            }
        });
    }

    /** A TCP connection to {@code to}, from {@code from} (null: any loopback address). */
    static Hostile connect(InetSocketAddress to, InetAddress from) throws IOException {
        Socket s = new Socket();
        try {
            if (from != null) s.bind(new InetSocketAddress(from, 0));
            s.connect(to, 3000);
            return new Hostile(s);
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    static Hostile connect(InetSocketAddress to) throws IOException {
        return connect(to, null);
    }

    /** Raw octets, shown to the decoder as this side's. */
    void send(byte[] b) throws IOException {
        socket.getOutputStream().write(b);
        socket.getOutputStream().flush();
        decoder.data(OUT, ByteBuffer.wrap(b), ++frame, System.nanoTime());
    }

    /** An MPA Request of {@code revision} (Rev 2: enhanced, IRD/ORD 16/16), no CRC, no Markers. */
    static byte[] request(int revision) {
        MpaStartFrame.Enhanced e = revision >= 2 ? new MpaStartFrame.Enhanced(16, 16, false, false, false, false) : null;
        return MpaStartFrame.request(false, false, revision, e, new byte[0]).toBytes();
    }

    /** Sends the MPA Request and reads up to the Reply: the connection is then in Full Operation. */
    Hostile establish(int revision) throws IOException {
        send(request(revision));
        socket.setSoTimeout(3000);
        readUntil(() -> received.stream().anyMatch(p -> p.startFrame() != null), 3000);
        MpaStartFrame reply = received.stream().map(Pdu::startFrame).filter(f -> f != null).findFirst()
                .orElseThrow(() -> new IOException("no MPA Reply"));
        if (reply.reject()) throw new IOException("the MPA Request was rejected");
        encoder = new FpduEncoder(false, reply.crc(), decoder.offset(OUT));
        return this;
    }

    /** FPDUs of the segments of {@code message}, framed as negotiated. */
    byte[] fpdus(RdmapEncoder.Builder message) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (DdpSegment s : message.segments()) {
            ByteBuffer u = ByteBuffer.allocate(s.length());
            s.writeTo(u);
            out.writeBytes(encoder.encode(u.flip()));
        }
        return out.toByteArray();
    }

    long nextSendMsn() {
        return sendMsn++;
    }

    long nextReadMsn() {
        return readMsn++;
    }

    /**
     * Reads what the peer sends until {@code until} holds, the peer closes (FIN or RST), or {@code ms} pass.
     *
     * @return true when the peer closed
     */
    boolean readUntil(java.util.function.BooleanSupplier until, long ms) throws IOException {
        long deadline = System.nanoTime() + ms * 1_000_000L;
        InputStream in = socket.getInputStream();
        byte[] buf = new byte[64 * 1024];
        while (peerEnd == null && !until.getAsBoolean()) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) return false;
            socket.setSoTimeout((int) Math.max(1, Math.min(left, 200)));
            int n;
            try {
                n = in.read(buf);
            } catch (SocketTimeoutException e) {
                continue;
            } catch (SocketException e) {
                peerEnd = "rst";
                return true;
            }
            if (n < 0) {
                peerEnd = "fin";
                return true;
            }
            decoder.data(IN, ByteBuffer.wrap(buf, 0, n), ++frame, System.nanoTime());
        }
        return peerEnd != null;
    }

    /** Reads until the peer closed; false when it did not within {@code ms}. */
    boolean awaitClose(long ms) throws IOException {
        return readUntil(() -> false, ms);
    }

    /** The first Terminate the peer sent, or null. */
    Terminate terminate() {
        for (Pdu p : received) {
            if (p.rdmap() != null && p.rdmap().body() instanceof Terminate t) return t;
        }
        return null;
    }

    /** RST: the connection is dropped at once. */
    void reset() {
        try {
            socket.setSoLinger(true, 0);
            socket.close();
        } catch (IOException e) {
            // gone already
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // gone already
        }
    }

}
