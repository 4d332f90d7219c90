package io.rddp.rnic;

import io.rddp.mpa.MpaStartFrame;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

import static org.assertj.core.api.Assertions.assertThat;

/** The queue pair cap counts connections that are there: ones that are gone make room (the RNIC fuzz target hit it). */
class QueuePairCapTest {

    @Test
    void connectionsThatEndedDoNotUseUpTheQueuePairCap() throws Exception {
        RnicConfig.Limits d = RnicConfig.Limits.defaults();
        RnicConfig config = RnicConfig.defaults().withLimits(new RnicConfig.Limits(4, d.maxMr(), d.maxMrSize(),
                d.maxMemory(), d.maxRecvWr(), d.maxSendWr(), d.maxIrdOrd(), d.maxPending(), d.maxMessage()));
        try (Rnic rnic = new Rnic(config, null)) {
            RnicListener l = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                    ConnectionSettings.defaults(rnic).withRecv(1, 64));
            for (int i = 0; i < 12; i++) {
                try (Socket s = new Socket()) {
                    s.connect(l.address(), 2000);
                    s.setSoTimeout(2000);
                    s.getOutputStream().write(MpaStartFrame.request(false, false, 2, new MpaStartFrame.Enhanced(4, 4,
                            false, false, false, false), new byte[0]).toBytes());
                    InputStream in = s.getInputStream();
                    byte[] reply = in.readNBytes(MpaStartFrame.HEADER_LENGTH + MpaStartFrame.Enhanced.LENGTH);
                    assertThat(reply).as("MPA Reply on connection " + (i + 1)).hasSize(MpaStartFrame.HEADER_LENGTH
                            + MpaStartFrame.Enhanced.LENGTH);
                    s.shutdownOutput();
                    while (in.read() >= 0) {
                        // until the RNIC closes its side too
                    }
                }
            }
            assertThat(rnic.qps().size()).isLessThanOrEqualTo(4);
        }
    }
}
