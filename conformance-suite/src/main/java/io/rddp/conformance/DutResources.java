package io.rddp.conformance;

import io.rddp.sink.ReceiveBuffers;
import io.rddp.sink.Side;
import io.rddp.sink.StagRegistration;
import io.rddp.sink.StagRegistry;

import java.util.Set;

/**
 * What the tester knows of the memory on either end of one connection, so the judge runs strict: the DUT's STags
 * (registered through the control channel, or learned), the tester's own, and the receives the DUT posted for the
 * tester's Sends. Not thread-safe: callers hold the connection's lock.
 */
final class DutResources {

    private final StagRegistry stags = StagRegistry.empty();
    private final Side dutSide;
    private long postedReceives = -1, receiveLength;

    DutResources(Side dutSide) {
        this.dutSide = dutSide;
    }

    StagRegistry stags() {
        return stags;
    }

    /** A DUT STag in this connection's protection domain. */
    void dutStag(long stag, long baseTo, long length, Set<StagRegistration.Access> rights) {
        stags.add(new StagRegistration(stag, baseTo, length, rights, dutSide, Set.of(), 0, Long.MAX_VALUE));
    }

    /** A DUT STag of another protection domain (RFC 5042 §6.1.1): "not associated with this stream". */
    void dutStagOtherDomain(long stag, long baseTo, long length, Set<StagRegistration.Access> rights) {
        stags.add(new StagRegistration(stag, baseTo, length, rights, dutSide, Set.of(-1), 0, Long.MAX_VALUE));
    }

    /** The DUT revoked remote access to {@code stag} as of {@code frame}. */
    void revokeDutStag(long stag, long frame) {
        stags.revoke(stag, frame);
    }

    void testerStag(long stag, long baseTo, long length, Set<StagRegistration.Access> rights) {
        stags.add(new StagRegistration(stag, baseTo, length, rights, dutSide == Side.CLIENT ? Side.SERVER
                : Side.CLIENT, Set.of(), 0, Long.MAX_VALUE));
    }

    /** The DUT posted {@code count} receives (-1: unknown) of {@code length} octets. */
    void dutReceives(long count, long length) {
        postedReceives = count;
        receiveLength = length;
    }

    /** The DUT's buffer for the tester's untagged message {@code m} on queue {@code qn} (RFC 5041 §7.1). */
    long dutReceive(long qn, long m) {
        if (qn != 0 || postedReceives < 0) return ReceiveBuffers.UNKNOWN;
        return m >= 1 && m <= postedReceives ? receiveLength : ReceiveBuffers.NONE;
    }

    /** The DUT's registration of {@code stag} (the first, if several), or null. */
    StagRegistration dutRegistration(long stag) {
        for (StagRegistration r : stags.registrations(stag)) if (r.owner() == dutSide) return r;
        return null;
    }
}
