package io.rddp.analyze;

import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.ReadSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.rpcrdma.RpcRdmaMessage;
import java.util.ArrayList;
import java.util.List;

import io.rddp.Notice;
import io.rddp.decode.Pdu;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.rdmap.Opcode;
import io.rddp.sink.Side;
import io.rddp.sink.StagRegistration;
import io.rddp.sink.StagRegistry;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What an upper-layer protocol tells the Data Sink model that RDMAP cannot: where STags are advertised. With a
 * profile chosen, advertisements in Send payloads become registrations, so accesses to those buffers are checked
 * instead of "unverifiable".
 */
public enum UlpProfile {
    /** No ULP knowledge: STags are learned only from RDMAP itself (Read Requests, Send with Invalidate). */
    NONE,
    /**
     * librdmacm's rping: every 16-octet Send is {@code struct rping_rdma_info { be64 buf; be32 rkey; be32 size; }},
     * advertising a buffer of the sender's for the peer to read or write (rping.c; seen in siw-rping-lo.pcap
     * frames 8 and 12).
     */
    RPING;

    /** Registrations one profile adds at most; later advertisements are only counted, with one notice. */
    static final int MAX_LEARNED = 65_536;

    /** Per-analysis state of a profile (the registrations it made, to skip repeats and stay bounded). */
    final class Learner {
        private final StagRegistry registry;
        private final Consumer<Notice> notices;
        private final Set<String> seen = new HashSet<>();
        private boolean capNoticed;

        Learner(StagRegistry registry, Consumer<Notice> notices) {
            this.registry = registry;
            this.notices = notices;
        }

        void onPdu(Pdu pdu) {
            if (UlpProfile.this != RPING || pdu.rdmap() == null || pdu.rdmap().opcode() == null) return;
            Opcode op = pdu.rdmap().opcode();
            boolean send = op == Opcode.SEND || op == Opcode.SEND_WITH_SE || op == Opcode.SEND_WITH_INVALIDATE
                    || op == Opcode.SEND_WITH_SE_AND_INVALIDATE;
            ByteBuffer p = pdu.rdmap().payload();
            if (!send || p.remaining() != 16 || !(pdu.ddp().header() instanceof UntaggedHeader u)
                    || u.mo() != 0 || !u.last()) {
                return;
            }
            long buf = p.getLong(p.position());
            long rkey = p.getInt(p.position() + 8) & 0xFFFF_FFFFL;
            long size = p.getInt(p.position() + 12) & 0xFFFF_FFFFL;
            if (size == 0) return; // rping's server sends zeroed structs as mere go-aheads (siw-rping-lo.pcap frame 11)
            learn(pdu, rkey, buf, size, EnumSet.of(StagRegistration.Access.READ, StagRegistration.Access.WRITE), "rping");
        }

        /**
         * RPC-over-RDMA chunks are advertisements whatever the profile (RFC 8166 §3.4.3): a Requester's Read chunk
         * segments are for the Responder to read, its Write and Reply chunk segments for it to write.
         */
        void onRpcRdma(Pdu pdu, RpcRdmaMessage m) {
            if (m == null || !m.fromRequester() || m.header() == null
                    || m.source() != RpcRdmaMessage.Source.INLINE) {
                return;
            }
            RpcRdmaHeader h = m.header();
            for (ReadSegment r : h.readList()) {
                RdmaSegment g = r.target();
                learn(pdu, g.handle(), g.offset(), g.length(), EnumSet.of(StagRegistration.Access.READ), "RPC-over-RDMA");
            }
            List<List<RdmaSegment>> writable = new ArrayList<>(h.writeList());
            if (h.replyChunk() != null) writable.add(h.replyChunk());
            for (List<RdmaSegment> chunk : writable) {
                for (RdmaSegment g : chunk) {
                    learn(pdu, g.handle(), g.offset(), g.length(), EnumSet.of(StagRegistration.Access.WRITE),
                            "RPC-over-RDMA");
                }
            }
        }

        private void learn(Pdu pdu, long stag, long base, long size, Set<StagRegistration.Access> access, String who) {
            Side owner = Side.senderOf(pdu.direction());
            String key = pdu.stream() + "/" + owner + "/" + stag + "/" + base + "/" + size + "/" + access;
            if (seen.contains(key)) return;
            if (seen.size() >= MAX_LEARNED) {
                if (!capNoticed) {
                    capNoticed = true;
                    notices.accept(new Notice(Notice.Severity.WARNING, "analyze", pdu.frame(), pdu.stream(), -1,
                            who + ": more than " + MAX_LEARNED + " distinct advertisements; later ones are not registered"));
                }
                return;
            }
            seen.add(key);
            // an advertisement is a piece of the STag's region: several of one STag resolve to their span
            registry.advertise(new StagRegistration(stag, base, size, access, owner, Set.of(pdu.stream()), pdu.frame(),
                    Long.MAX_VALUE));
        }
    }

    Learner learner(StagRegistry registry, Consumer<Notice> notices) {
        return new Learner(registry, notices);
    }
}
