package io.rddp.rnic.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rddp.ddp.DdpHeader;
import io.rddp.mpa.FpduEncoder;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rnic.Access;
import io.rddp.rnic.ConnectionSettings;
import io.rddp.rnic.MemoryRegion;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicConfig;
import io.rddp.rnic.RnicListener;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The emulated RNIC's receive path on hostile input: after a valid MPA exchange over a real loopback socket, the
 * fuzzer sends FPDUs framed right around fuzzer-chosen DDP/RDMAP headers (STags of a real registration among them)
 * and raw octets. Whatever arrives, the RNIC must answer with a Terminate or a close, never fail inside (an internal
 * error is a bug) and never hang.
 */
class RnicReceiveFuzzTest {

    private static Rnic rnic;
    private static RnicListener listener;
    private static MemoryRegion region;

    private static synchronized void init() throws Exception {
        if (rnic != null) return;
        rnic = new Rnic(RnicConfig.defaults(), null);
        listener = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                ConnectionSettings.defaults(rnic).withRecv(4, 512));
        region = rnic.register(rnic.defaultPd(), 4096, Set.of(Access.values()));
    }

    @FuzzTest
    void receive(FuzzedDataProvider data) throws Exception {
        // the connections go to the RNIC this test started on loopback, not anywhere the input chose
        try (var allowed = com.code_intelligence.jazzer.api.BugDetectors.allowNetworkConnections()) {
            exchange(data);
        }
        assertThat(rnic.internalErrors()).isEmpty();
    }

    private void exchange(FuzzedDataProvider data) throws Exception {
        init();
        boolean crc = data.consumeBoolean(), markers = data.consumeBoolean();
        try (Socket s = new Socket()) {
            s.connect(listener.address(), 2000);
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            MpaStartFrame req = MpaStartFrame.request(markers, crc, 2, new MpaStartFrame.Enhanced(4, 4, false, false,
                    false, false), new byte[0]);
            out.write(req.toBytes());
            byte[] reply = in.readNBytes(MpaStartFrame.HEADER_LENGTH + MpaStartFrame.Enhanced.LENGTH);
            if (reply.length < MpaStartFrame.HEADER_LENGTH) return;
            MpaStartFrame rep = MpaStartFrame.parse(ByteBuffer.wrap(reply));
            FpduEncoder enc = new FpduEncoder(rep.markers(), crc || rep.crc(), req.length());
            int n = data.consumeInt(1, 6);
            for (int i = 0; i < n && data.remainingBytes() > 0; i++) {
                if (data.consumeInt(0, 9) == 0) {
                    out.write(data.consumeBytes(data.consumeInt(1, 64)));
                    continue;
                }
                byte[] ulpdu = data.consumeBytes(data.consumeInt(0, 600));
                if (ulpdu.length >= DdpHeader.TAGGED_LENGTH && data.consumeBoolean()) {
                    // aim at the real registration, so placement, bounds and rights run for real
                    ByteBuffer b = ByteBuffer.wrap(ulpdu);
                    b.put(0, (byte) (b.get(0) | 0x80)).putInt(2, (int) region.stag())
                            .putLong(6, region.baseTo() + data.consumeInt(-64, 5000));
                }
                out.write(enc.encode(ByteBuffer.wrap(ulpdu)));
            }
            s.shutdownOutput();
            try {
                while (in.read() >= 0) {
                    // drain what the RNIC answers until it closes too
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the RNIC neither answered nor closed within 2 s");
            } catch (java.io.IOException e) {
                // reset by the RNIC: also an answer
            }
        }
    }
}
