package io.rddp.testing;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.Frame;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Writes a copy of an Ethernet capture with an 802.1Q tag (IEEE 802.1Q §9.5: TPID 0x8100, then the TCI) inserted
 * after each frame's MAC addresses: the bundled captures have no VLAN, and tshark must see the same tags we do.
 */
public final class VlanTagged {
    private VlanTagged() {
    }

    /**
     * @param priority the tag's Priority Code Point (3 bits)
     * @param vid      the tag's VLAN Identifier (12 bits)
     */
    public static Path write(Path source, Path target, int priority, int vid) throws IOException {
        try (CaptureReader r = CaptureReaders.open(source);
             PcapWriter w = PcapWriter.create(target, LinkType.ETHERNET, true)) {
            Frame f = new Frame();
            while (r.next(f)) {
                ByteBuffer d = f.data.duplicate();
                ByteBuffer out = ByteBuffer.allocate(d.remaining() + 4);
                for (int i = 0; i < 12; i++) out.put(d.get());
                out.putShort((short) 0x8100).putShort((short) ((priority << 13) | vid)).put(d).flip();
                w.writePacket(f.timestampNanos, out, f.originalLength + 4, null);
            }
        }
        return target;
    }
}
