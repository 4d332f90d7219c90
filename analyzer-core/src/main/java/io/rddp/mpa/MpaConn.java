package io.rddp.mpa;

import io.rddp.Notice;
import io.rddp.Notice.Severity;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

/** The MPA state of one TCP connection: its two directions. */
final class MpaConn {
    private static final String LAYER = "mpa";

    final TcpConnection tcp;
    final MpaSide c2s = new MpaSide(Direction.CLIENT_TO_SERVER);
    final MpaSide s2c = new MpaSide(Direction.SERVER_TO_CLIENT);
    final MpaSide[] sides = {c2s, s2c};
    /** Both directions sent the same kind of start frame and that was reported. */
    boolean pairNoticed;

    MpaConn(TcpConnection tcp) {
        this.tcp = tcp;
    }

    MpaSide side(Direction d) {
        return d == Direction.CLIENT_TO_SERVER ? c2s : s2c;
    }

    MpaSide peer(MpaSide s) {
        return s == c2s ? s2c : c2s;
    }

    void notice(MpaListener listener, Severity severity, long frame, long offset, String message) {
        listener.onNotice(new Notice(severity, LAYER, frame, tcp.index(), offset, message));
    }
}
