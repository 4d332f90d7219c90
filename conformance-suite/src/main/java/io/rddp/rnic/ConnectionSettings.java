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
 */
public record ConnectionSettings(ProtectionDomain pd, int recvCount, int recvLength, int ird, int ord,
                                 byte[] privateData, boolean reject) {

    public ConnectionSettings {
        if (recvCount < 0 || recvLength < 0) throw new RnicException(RnicException.Kind.BAD_REQUEST,
                "receive count and length must not be negative");
        privateData = privateData == null ? new byte[0] : privateData.clone();
    }

    public static ConnectionSettings defaults(Rnic rnic) {
        return new ConnectionSettings(rnic.defaultPd(), 0, 0, rnic.config().ird(), rnic.config().ord(), null, false);
    }

    public ConnectionSettings withRecv(int count, int length) {
        return new ConnectionSettings(pd, count, length, ird, ord, privateData, reject);
    }

    public ConnectionSettings withIrdOrd(int i, int o) {
        return new ConnectionSettings(pd, recvCount, recvLength, i, o, privateData, reject);
    }

    public ConnectionSettings withPd(ProtectionDomain p) {
        return new ConnectionSettings(p, recvCount, recvLength, ird, ord, privateData, reject);
    }

    public ConnectionSettings withPrivateData(byte[] d) {
        return new ConnectionSettings(pd, recvCount, recvLength, ird, ord, d, reject);
    }

    public ConnectionSettings withReject(boolean r) {
        return new ConnectionSettings(pd, recvCount, recvLength, ird, ord, privateData, r);
    }

    MpaSetup.AcceptSettings mpa() {
        return new MpaSetup.AcceptSettings(ird, ord, privateData, reject);
    }
}
