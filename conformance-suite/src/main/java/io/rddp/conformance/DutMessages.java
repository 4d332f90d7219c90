package io.rddp.conformance;

import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.rdmap.Opcode;
import io.rddp.rnic.link.Link;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.rddp.conformance.StepValues.fail;

/**
 * The DUT's PDUs as the checks see them: by opcode, counted, and assembled into messages (RFC 5041 §5.2, §5.3: the
 * segments of one message share an STag, or a queue and MSN, and the last one has L).
 */
final class DutMessages {

    private DutMessages() {
    }

    /** One message the DUT sent: its first header, all its payload (by MO for untagged messages). */
    record Message(DdpHeader first, io.rddp.rdmap.RdmapPdu firstPdu, byte[] payload, int segments,
                   List<ScriptedConnection.DutPdu> parts) {
    }

    /** DUT PDUs of one opcode, in wire order. */
    static List<ScriptedConnection.DutPdu> pdus(ScriptedConnection c, Opcode op) {
        List<ScriptedConnection.DutPdu> out = new ArrayList<>();
        for (ScriptedConnection.DutPdu p : c.dutPdus()) if (p.rdmap() != null && p.rdmap().opcode() == op) out.add(p);
        return out;
    }

    static int count(ScriptedConnection c, Opcode op) {
        return pdus(c, op).size();
    }

    static boolean gone(ScriptedConnection c) {
        return c.peerClose() != Link.PeerClose.OPEN;
    }

    /** The complete (L seen) messages of {@code op} the DUT sent, in the order they completed. */
    static List<Message> messages(ScriptedConnection c, Opcode op) {
        List<Message> out = new ArrayList<>();
        Map<String, List<ScriptedConnection.DutPdu>> open = new LinkedHashMap<>();
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.rdmap() == null || p.rdmap().opcode() != op) continue;
            DdpHeader h = p.segment().header();
            String key = h instanceof UntaggedHeader u ? "u" + u.qn() + "/" + u.msn()
                    : "t" + ((TaggedHeader) h).stag();
            List<ScriptedConnection.DutPdu> segs = open.computeIfAbsent(key, k -> new ArrayList<>());
            segs.add(p);
            if (!h.last()) continue;
            open.remove(key);
            out.add(assemble(segs));
        }
        return out;
    }

    /** One message from its segments: untagged ones by MO, tagged ones in the order sent. */
    private static Message assemble(List<ScriptedConnection.DutPdu> segs) {
        ScriptedConnection.DutPdu first = segs.get(0);
        long end = 0, tagged = 0;
        for (ScriptedConnection.DutPdu p : segs) {
            int n = p.payload() == null ? 0 : p.payload().length;
            if (p.segment().header() instanceof UntaggedHeader u) end = Math.max(end, u.mo() + n);
            tagged += n;
        }
        boolean untagged = first.segment().header() instanceof UntaggedHeader;
        // an untagged message is as long as its highest MO reaches, but never longer than the octets its segments
        // carried: MOs that leave holes (or a tagged segment read as untagged) must not make the tester allocate
        // what the DUT never sent; the octets past that are left out and the comparison fails
        byte[] all = new byte[(int) (untagged ? Math.min(end, tagged) : tagged)];
        int at = 0;
        for (ScriptedConnection.DutPdu p : segs) {
            byte[] pl = p.payload() == null ? new byte[0] : p.payload();
            long off = p.segment().header() instanceof UntaggedHeader u ? u.mo() : at;
            if (off < all.length) System.arraycopy(pl, 0, all, (int) off, (int) Math.min(pl.length, all.length - off));
            at += pl.length;
        }
        return new Message(first.segment().header(), first.rdmap(), all, segs.size(), List.copyOf(segs));
    }

    /** Messages of {@code op} the DUT completed (segments with L), counted without assembling them. */
    private static int completed(ScriptedConnection c, Opcode op) {
        int n = 0;
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.rdmap() != null && p.rdmap().opcode() == op && p.segment().header().last()) n++;
        }
        return n;
    }

    static Message awaitMessage(ScenarioRun r, Opcode op, int index) throws Exception {
        ScriptedConnection c = r.conn();
        c.await(x -> completed(x, op) > index || gone(x), r.ctx().timeouts().reaction());
        List<Message> ms = messages(c, op);
        if (ms.size() <= index) {
            fail("the DUT sent " + ms.size() + " complete " + op.rfcName() + " message(s); message " + (index + 1)
                    + " was expected");
        }
        return ms.get(index);
    }
}
