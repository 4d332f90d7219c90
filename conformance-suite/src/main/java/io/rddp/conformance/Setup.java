package io.rddp.conformance;

import io.rddp.mpa.MpaStartFrame;

import java.util.Set;

/**
 * How a scenario wants the DUT prepared and the connection opened.
 *
 * @param receives      receives the DUT posts before the MPA Reply (RFC 5040 §5.3)
 * @param receiveLength octets of each
 * @param bufferLength  octets of the DUT buffer the tester may target (0: none), filled with the canary
 * @param bufferAccess  its remote rights (remote_read, remote_write, remote_atomic)
 * @param request       the tester's MPA Request, or null to leave the MPA exchange to the scenario
 * @param manualAccept  the DUT's Reply waits for an explicit accept (agent profile)
 * @param ird           IRD the DUT advertises (-1: its default)
 * @param ord           ORD the DUT advertises (-1: its default)
 */
public record Setup(int receives, int receiveLength, int bufferLength, Set<String> bufferAccess,
                    MpaStartFrame request, boolean manualAccept, int ird, int ord) {

    public static final String CANARY = "c0ffee15";

    public static Setup defaults() {
        return new Setup(4, 256, 4096, Set.of("remote_read", "remote_write"),
                MpaStartFrame.request(false, false, 2, new MpaStartFrame.Enhanced(4, 4, false, false, false, false),
                        new byte[0]), false, -1, -1);
    }

    public Setup withRequest(MpaStartFrame r) {
        return new Setup(receives, receiveLength, bufferLength, bufferAccess, r, manualAccept, ird, ord);
    }

    public Setup withReceives(int n, int length) {
        return new Setup(n, length, bufferLength, bufferAccess, request, manualAccept, ird, ord);
    }

    public Setup withBuffer(int length, Set<String> access) {
        return new Setup(receives, receiveLength, length, access, request, manualAccept, ird, ord);
    }

    public Setup withManualAccept(boolean m) {
        return new Setup(receives, receiveLength, bufferLength, bufferAccess, request, m, ird, ord);
    }

    public Setup withIrdOrd(int i, int o) {
        return new Setup(receives, receiveLength, bufferLength, bufferAccess, request, manualAccept, i, o);
    }
}
