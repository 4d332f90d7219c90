package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.Opcode;
import io.rddp.sink.StagRegistration;

/**
 * Which fields of a PDU the tester sends a scenario set to a faulty value — a value the connection's state or the
 * RFCs would not have chosen — in words, for the report to mark ({@link WireMark.Kind#INJECTED}). Fields a scenario
 * merely chooses (a length, the data, a TO inside the buffer) are not faults.
 */
final class Injected {

    private Injected() {
    }

    /**
     * The faulty fields of a start frame {@code f} the tester sends as {@code a} ({@code start}, {@code reply},
     * {@code mpa}) describes.
     */
    static WireMark.Faults startFrame(JsonNode a, MpaStartFrame f) {
        WireMark.Faults out = new WireMark.Faults();
        boolean request = f.kind() == MpaStartFrame.Kind.REQUEST;
        String key = request ? "MPA ID Req Frame" : "MPA ID Rep Frame";
        if (a.has("key") && !a.path("key").asText().equals(key)) {
            out.add("key \"" + a.path("key").asText() + "\"", "mpa.kind", "mpa.keyValid");
        }
        if (a.has("rev") && f.revision() != 1 && f.revision() != 2) out.add("Rev " + f.revision(), "mpa.rev");
        if (a.has("res") && ((f.reserved() & 0x0F) != 0 || f.revision() < 2 && f.reserved() != 0)) {
            out.add("Res 0x" + Integer.toHexString(f.reserved()), "mpa.res");
        }
        if (request && f.reject()) out.add("R = 1 in a Request", "mpa.r");
        if (f.pdLength() != f.privateData().length) {
            out.add("PD_Length " + f.pdLength() + " with " + f.privateData().length + " octets of Private Data",
                    "mpa.pdLength");
        } else if (f.pdLength() > MpaStartFrame.MAX_PRIVATE_DATA) {
            out.add("PD_Length " + f.pdLength() + " (at most " + MpaStartFrame.MAX_PRIVATE_DATA + ")", "mpa.pdLength");
        }
        return out;
    }

    /** The MSN a {@code send} gives: absolute, or "+k"/"-k" from {@code next}. */
    static long msn(long next, JsonNode a) {
        String v = a.path("msn").asText();
        long m = v.startsWith("+") || v.startsWith("-") ? next + Long.parseLong(v) : Long.parseLong(v);
        return m & 0xFFFF_FFFFL;
    }

    /**
     * The faulty fields of a {@code send} of {@code op}: {@code due} is the MSN the connection's state had next (-1
     * for a tagged opcode), {@code stag}/{@code to} the DUT's STag and TO the message addresses (tagged, Atomic) or
     * the source of a Read, {@code length} its payload or the Read's size, {@code defaults} the STag and TO of the
     * scenario buffer (what a send without them takes), {@code open} the MSN and next MO of a message the tester
     * left open on the queue ({@code last: false}; null: none), which a part with that MSN and MO continues.
     */
    static WireMark.Faults send(ScriptedConnection c, JsonNode a, Opcode op, long due, long stag, long to,
                                long length, long[] defaults, long[] open) {
        WireMark.Faults out = new WireMark.Faults();
        long m = a.has("msn") && due >= 0 ? msn(due, a) : due;
        boolean continues = open != null && due >= 0 && m == open[0];
        if (open != null && due >= 0 && !continues && a.path("mo").asLong(0) == open[1]) {
            // a part at the MO that continues the open message, with another MSN
            out.add("MSN " + m + " where the message in progress has " + open[0], "ddp.msn");
            continues = true;
        } else if (a.has("msn") && due >= 0 && !continues && m != due) {
            out.add("MSN " + m + " where " + due + " is due", "ddp.msn");
        }
        int qn = Math.max(0, op.queueNumber());
        if (a.has("qn") && a.path("qn").asLong() != qn) {
            out.add("QN " + a.path("qn").asLong() + (op.tagged() ? "" : " (" + op.rfcName() + " goes on QN " + qn
                    + ")"), "ddp.qn");
        }
        // a message left open (L 0) is no fault in itself: the parts after it are judged against it
        long mo = a.path("mo").asLong(0), wantMo = continues ? open[1] : 0;
        if (a.has("mo") && mo != wantMo) {
            out.add("MO " + mo + (continues ? " where " + wantMo + " follows" : ""), "ddp.mo");
        }
        if (a.has("tagged") && a.path("tagged").asBoolean() != op.tagged()) {
            out.add("T " + (a.path("tagged").asBoolean() ? 1 : 0) + " (" + op.rfcName() + " is "
                    + (op.tagged() ? "tagged" : "untagged") + ")", "ddp.tagged");
        }
        if (a.has("opcode-value") && a.path("opcode-value").asInt() != op.code()) {
            Opcode v = Opcode.of(a.path("opcode-value").asInt());
            out.add("opcode " + a.path("opcode-value").asInt() + " (" + (v == null ? "reserved" : v.rfcName()) + ")",
                    "rdmap.opcode");
        }
        if (a.has("rdma-version") && a.path("rdma-version").asInt() != 1) {
            out.add("RDMAP version " + a.path("rdma-version").asInt(), "rdmap.version");
        }
        if (a.has("rdmap-rsv") && a.path("rdmap-rsv").asInt() != 0) {
            out.add("RDMAP Rsv " + a.path("rdmap-rsv").asInt(), "rdmap.version", "rdmap.opcode");
        }
        if (a.has("ddp-version") && a.path("ddp-version").asInt() != 1) {
            out.add("DDP version " + a.path("ddp-version").asInt(), "ddp.version");
        }
        if (a.has("ddp-rsvd") && a.path("ddp-rsvd").asInt() != 0) out.add("DDP Rsvd " + a.path("ddp-rsvd").asInt(),
                "ddp.rsvd");
        switch (op) {
            // a zero-length tagged message addresses nothing (RFC 5041 §7.1: its STag and TO are not validated)
            case RDMA_WRITE, RDMA_READ_RESPONSE -> {
                if (length > 0) address(c, out, "", a.has("stag"), stag, a.has("to"), to, length, defaults,
                        "ddp.stag", "ddp.to", "rdmap.payloadLength");
            }
            case RDMA_READ_REQUEST -> address(c, out, "source ", a.has("src-stag"), stag, a.has("src-to")
                    || a.has("size"), to, length, defaults, "rdmap.readRequest.srcStag", "rdmap.readRequest.srcTo",
                    "rdmap.readRequest.size");
            case ATOMIC_REQUEST -> {
                address(c, out, "", a.has("stag"), stag, a.has("to"), to, 8, defaults,
                        "rdmap.atomicRequest.remoteStag", "rdmap.atomicRequest.remoteTo", null);
                if ((to & 7) != 0) out.add("TO 0x" + Long.toHexString(to) + " not 64-bit aligned",
                        "rdmap.atomicRequest.remoteTo");
                if (a.has("aopcode")) out.add("atomic operation " + a.path("aopcode").asLong(),
                        "rdmap.atomicRequest.atomicOpcode");
            }
            default -> {
                if (a.has("stag")) out.add("STag in an untagged " + op.rfcName(), "ddp.stag");
                if (a.has("to")) out.add("TO in an untagged " + op.rfcName(), "ddp.to");
            }
        }
        if (a.has("invalidate-stag") && !op.carriesInvalidateStag()) {
            out.add("Invalidate STag field in a " + op.rfcName(), "rdmap.invalidateStag");
        }
        if (a.path("term-reserved").asInt(0) != 0) {
            out.add("Terminate reserved bits 0x" + Integer.toHexString(a.path("term-reserved").asInt()),
                    "rdmap.terminate");
        }
        if (a.has("truncate")) out.add("ULPDU cut to " + a.path("truncate").asInt() + " octets", "mpa.ulpduLength");
        JsonNode f = a.path("faults");
        switch (f.path("crc").asText("right")) {
            case "wrong" -> out.add("a wrong CRC", "mpa.crc");
            case "zero" -> out.add("CRC zero", "mpa.crc");
            case "other-order" -> out.add("the CRC in the other byte order", "mpa.crc");
            default -> {
            }
        }
        if (f.path("pad").asInt(0) != 0) out.add("pad octets 0x" + Integer.toHexString(f.path("pad").asInt()),
                "mpa.pad");
        if (f.path("marker-delta").asInt(0) != 0) out.add("Marker FPDUPTR off by " + f.path("marker-delta").asInt(),
                "mpa.markers");
        if (f.path("omit-markers").asBoolean(false)) out.add("Markers left out", "mpa.markers");
        return out;
    }

    /**
     * A DUT STag and a range of its TOs: the STag is a fault when the scenario gave one other than its buffer's, the
     * range when it lies outside what the DUT registered for the STag (or wraps past 2^64).
     */
    private static void address(ScriptedConnection c, WireMark.Faults out, String which, boolean stagGiven,
                                long stag, boolean rangeGiven, long to, long length, long[] defaults,
                                String stagField, String toField, String lengthField) {
        StagRegistration reg = c.dutRegistration(stag);
        if (stagGiven && stag != defaults[0]) {
            out.add(which + "STag 0x" + Long.toHexString(stag) + (reg == null ? " (not one the DUT registered for"
                    + " the tester)" : ""), stagField);
            if (reg == null) return; // a TO of an STag the DUT does not have means nothing
        }
        String[] range = lengthField == null ? new String[]{toField} : new String[]{toField, lengthField};
        String at = which + "TO 0x" + Long.toHexString(to);
        String plus = " + " + (which.isEmpty() ? "" : "size ") + length;
        if (length > 0 && Long.compareUnsigned(to + length, to) < 0) {
            out.add(at + plus + " wraps past 2^64", range);
        } else if (reg != null) {
            long rel = to - reg.baseTo();
            if (rel < 0) {
                out.add(at + ", " + ScenarioRun.size(-rel) + " before the buffer", range);
            } else if (rel + length > reg.length()) {
                out.add(at + plus + ": " + ScenarioRun.size(rel + length - reg.length()) + " beyond the buffer's end",
                        range);
            }
        } else if (rangeGiven && to != defaults[1]) {
            out.add(at, toField);
        }
    }
}
