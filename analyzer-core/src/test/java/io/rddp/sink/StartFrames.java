package io.rddp.sink;

import io.rddp.mpa.MpaStartFrame;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds and reads MPA Request/Reply frames for the tests (RFC 5044 §7.1.1, RFC 6581 §6 and §9). Res is taken as
 * the 5 bits of RFC 5044 Figure 8 with the RFC 6581 S flag as their most significant bit (0x10).
 */
final class StartFrames {

    static final byte[] REQ_KEY = "MPA ID Req Frame".getBytes(StandardCharsets.US_ASCII);
    static final byte[] REP_KEY = "MPA ID Rep Frame".getBytes(StandardCharsets.US_ASCII);

    private StartFrames() {
    }

    /** Reads a whole start frame as the MPA layer would hand it over. */
    static MpaStartFrame parse(byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        byte[] key = Arrays.copyOf(b, 16);
        boolean req = Arrays.equals(key, REQ_KEY), rep = Arrays.equals(key, REP_KEY);
        int bits = b[16] & 0xFF;
        int pdLength = buf.getShort(18) & 0xFFFF;
        byte[] pd = Arrays.copyOfRange(b, 20, Math.min(b.length, 20 + pdLength));
        int reserved = bits & 0x1F;
        MpaStartFrame.Enhanced e = null;
        if ((reserved & 0x10) != 0 && pd.length >= 4) {
            int ird = ((pd[0] & 0xFF) << 8) | (pd[1] & 0xFF), ord = ((pd[2] & 0xFF) << 8) | (pd[3] & 0xFF);
            e = new MpaStartFrame.Enhanced(ird & 0x3FFF, ord & 0x3FFF, (ird & 0x8000) != 0, (ird & 0x4000) != 0,
                    (ord & 0x8000) != 0, (ord & 0x4000) != 0);
        }
        MpaStartFrame.Kind kind = req || !rep && b[12] == 'R' && b[13] == 'e' && b[14] == 'q'
                ? MpaStartFrame.Kind.REQUEST : MpaStartFrame.Kind.REPLY;
        return new MpaStartFrame(kind, req || rep, (bits & 0x80) != 0, (bits & 0x40) != 0, (bits & 0x20) != 0,
                reserved, b[17] & 0xFF, pdLength, pd, e);
    }

    /** A well-formed frame: Rev 2 with enhanced data when {@code e} is given, else Rev 1. */
    static MpaStartFrame frame(MpaStartFrame.Kind kind, MpaStartFrame.Enhanced e) {
        byte[] pd = e == null ? new byte[0] : enhanced(e);
        return new MpaStartFrame(kind, true, false, false, false, e == null ? 0 : 0x10, e == null ? 1 : 2,
                pd.length, pd, e);
    }

    static MpaStartFrame request(MpaStartFrame.Enhanced e) {
        return frame(MpaStartFrame.Kind.REQUEST, e);
    }

    static MpaStartFrame reply(MpaStartFrame.Enhanced e) {
        return frame(MpaStartFrame.Kind.REPLY, e);
    }

    static MpaStartFrame.Enhanced irdOrd(int ird, int ord) {
        return new MpaStartFrame.Enhanced(ird, ord, false, false, false, false);
    }

    static byte[] enhanced(MpaStartFrame.Enhanced e) {
        ByteBuffer b = ByteBuffer.allocate(4);
        b.putShort((short) (e.ird() | (e.peerToPeer() ? 0x8000 : 0) | (e.zeroLengthSendRtr() ? 0x4000 : 0)));
        b.putShort((short) (e.ord() | (e.zeroLengthWriteRtr() ? 0x8000 : 0) | (e.zeroLengthReadRtr() ? 0x4000 : 0)));
        return b.array();
    }
}
