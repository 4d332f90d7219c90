package io.rddp.rnic;

/**
 * What a connection is set up with beyond the RNIC's configuration: its protection domain, the receives posted
 * before the MPA exchange ends (RFC 5040 §5.3: a Send needs a posted receive), the IRD/ORD it advertises (RFC 6581
 * §9.1) and the ULP's private data.
 *
 * @param pd          protection domain of the queue pair
 * @param recvCount   receives of {@code recvLength} octets posted into buffers of the RNIC's own
 * @param recvLength  octets of each
 * @param ird         inbound Read/Atomic Requests allowed at once
 * @param ord         outbound ones
 * @param privateData ULP private data in the MPA Request or Reply (after RFC 6581's four octets)
 * @param reject      answer the MPA Request with R = 1 (accepts only)
 * @param mpa         MPA choices for this connection instead of the RNIC's, or null
 */
public record ConnectionSettings(ProtectionDomain pd, int recvCount, int recvLength, int ird, int ord,
                                 byte[] privateData, boolean reject, MpaChoices mpa) {

    /**
     * Per-connection MPA choices (the DUT control protocol's {@code mpa} object); null fields keep the RNIC's.
     *
     * @param revision   the only revision to use (1 or 2)
     * @param crc        ask for CRC32c
     * @param markers    ask for Markers
     * @param peerToPeer initiate peer-to-peer
     * @param rtr        RTR types offered or accepted
     */
    public record MpaChoices(Integer revision, Boolean crc, Boolean markers, Boolean peerToPeer,
                             java.util.Set<RnicConfig.Rtr> rtr) {

        RnicConfig applyTo(RnicConfig c) {
            RnicConfig out = c;
            if (revision != null) out = out.withRevisions(java.util.Set.of(revision));
            if (crc != null) out = out.withCrc(crc);
            if (markers != null) out = out.withMarkers(markers);
            if (peerToPeer != null || rtr != null) {
                java.util.Set<RnicConfig.Rtr> types = rtr != null ? rtr : out.rtr();
                out = out.withPeerToPeer(peerToPeer != null ? peerToPeer : out.peerToPeer(), types);
            }
            return out;
        }
    }

    public ConnectionSettings {
        if (recvCount < 0 || recvLength < 0) throw new RnicException(RnicException.Kind.BAD_REQUEST,
                "receive count and length must not be negative");
        privateData = privateData == null ? new byte[0] : privateData.clone();
    }

    public static ConnectionSettings defaults(Rnic rnic) {
        return new ConnectionSettings(rnic.defaultPd(), 0, 0, rnic.config().ird(), rnic.config().ord(), null, false,
                null);
    }

    public ConnectionSettings withRecv(int count, int length) {
        return new ConnectionSettings(pd, count, length, ird, ord, privateData, reject, mpa);
    }

    public ConnectionSettings withIrdOrd(int i, int o) {
        return new ConnectionSettings(pd, recvCount, recvLength, i, o, privateData, reject, mpa);
    }

    public ConnectionSettings withPd(ProtectionDomain p) {
        return new ConnectionSettings(p, recvCount, recvLength, ird, ord, privateData, reject, mpa);
    }

    public ConnectionSettings withPrivateData(byte[] d) {
        return new ConnectionSettings(pd, recvCount, recvLength, ird, ord, d, reject, mpa);
    }

    public ConnectionSettings withReject(boolean r) {
        return new ConnectionSettings(pd, recvCount, recvLength, ird, ord, privateData, r, mpa);
    }

    public ConnectionSettings withMpa(MpaChoices m) {
        return new ConnectionSettings(pd, recvCount, recvLength, ird, ord, privateData, reject, m);
    }

    /** The RNIC's configuration with this connection's MPA choices applied. */
    RnicConfig effective(RnicConfig c) {
        return mpa == null ? c : mpa.applyTo(c);
    }

    MpaSetup.AcceptSettings accept() {
        return new MpaSetup.AcceptSettings(ird, ord, privateData, reject);
    }
}
