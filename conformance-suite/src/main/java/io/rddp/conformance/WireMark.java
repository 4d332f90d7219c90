package io.rddp.conformance;

import java.util.ArrayList;
import java.util.List;

/**
 * A mark on one PDU of a scenario's recorded exchange, for the report's ladder and field-by-field decode: the tester's
 * PDU whose fields the scenario set to a faulty value, the DUT's PDU the judge found at fault, or just which end of a
 * connection is the tester's. A PDU is found in the recording by its connection (the tester's and the DUT's ports)
 * and the stream offset of its first octet in its direction.
 *
 * @param kind       what the mark says
 * @param testerPort the tester's TCP port of the connection
 * @param dutPort    the DUT's TCP port of the connection
 * @param from       stream offset of the PDU's first octet, in its direction (a start frame: 0)
 * @param to         the end of the PDU's octets (exclusive): a decoded PDU starting in [from, to) is marked
 * @param fields     the fields, by their filter names ({@code ddp.msn}, {@code rdmap.readRequest.size}); empty when
 *                   the mark names none (the PDU as a whole)
 * @param what       in words, e.g. "MSN 3 where 2 is due" or "ddp.tagged.bounds: ..."
 */
public record WireMark(Kind kind, int testerPort, int dutPort, long from, long to, List<String> fields, String what) {

    public WireMark {
        fields = List.copyOf(fields);
    }

    public enum Kind {
        /** the tester set these fields of its PDU to a faulty value on purpose */
        INJECTED,
        /** the judge found the tester's PDU at fault (what a raw step's octets break, or confirms an injection) */
        TESTER_FAULT,
        /** the judge found the DUT's PDU at fault: the fields its violation is about */
        OFFENDING,
        /** only which end is the tester's (the ladder draws its arrows from it) */
        CONNECTION
    }

    /** Whether {@code offset}, a PDU's first octet, lies in this mark's PDU. */
    boolean covers(long offset) {
        return offset >= from && offset < Math.max(to, from + 1);
    }

    /**
     * The fields a check of the sink model is about, by filter name: those a PDU has are highlighted. Empty for a
     * check about no one field (the PDU as a whole is marked).
     */
    static List<String> fieldsOf(String check) {
        return switch (check) {
            case "mpa.crc" -> List.of("mpa.crc");
            case "mpa.pad" -> List.of("mpa.pad");
            case "mpa.marker" -> List.of("mpa.markers");
            case "mpa.start.key" -> List.of("mpa.kind", "mpa.keyValid");
            case "mpa.start.rev" -> List.of("mpa.rev");
            case "mpa.start.pd-length" -> List.of("mpa.pdLength");
            case "mpa.start.reserved" -> List.of("mpa.res", "mpa.r");
            case "mpa.enhanced.ird-ord" -> List.of("mpa.ird", "mpa.ord");
            case "mpa.enhanced.rtr-flags", "mpa.rtr" -> List.of("mpa.peerToPeer", "mpa.rtrSend", "mpa.rtrWrite",
                    "mpa.rtrRead");
            case "ddp.version" -> List.of("ddp.version");
            case "ddp.reserved" -> List.of("ddp.rsvd");
            case "ddp.untagged.qn" -> List.of("ddp.qn");
            case "ddp.untagged.msn" -> List.of("ddp.msn");
            case "ddp.untagged.no-buffer", "ddp.untagged.qn-msn-changed" -> List.of("ddp.qn", "ddp.msn");
            case "ddp.untagged.too-long", "ddp.untagged.mo-order", "ddp.untagged.mo-coverage",
                    "ddp.untagged.message-length" -> List.of("ddp.mo");
            case "ddp.last-flag", "rdmap.terminate.segments" -> List.of("ddp.last");
            case "ddp.rsvdulp-changed" -> List.of("ddp.rsvdUlp");
            case "ddp.tagged.to-order", "ddp.tagged.to-wrap", "ddp.tagged.bounds", "ddp.tagged.overlap",
                    "rdmap.read-response.to" -> List.of("ddp.to");
            case "ddp.tagged.stag-changed", "ddp.tagged.stag", "rdmap.read-response.stag",
                    "security.read-response-unsolicited" -> List.of("ddp.stag");
            case "rdmap.version" -> List.of("rdmap.version");
            case "rdmap.opcode", "rdmap.opcode-placement" -> List.of("rdmap.opcode");
            case "rdmap.read-response.size", "rdmap.payload-not-allowed", "rdmap.immediate-data.length" ->
                    List.of("rdmap.payloadLength");
            case "rdmap.remote-access.stag", "security.stag-stream", "security.stag-invalidated",
                    "security.access" -> List.of("ddp.stag", "rdmap.readRequest.srcStag",
                    "rdmap.atomicRequest.remoteStag");
            case "rdmap.remote-access.bounds" -> List.of("ddp.to", "rdmap.readRequest.srcTo",
                    "rdmap.readRequest.size", "rdmap.atomicRequest.remoteTo");
            case "rdmap.read-request.to-wrap" -> List.of("rdmap.readRequest.srcTo", "rdmap.readRequest.size");
            case "rdmap.atomic.opcode" -> List.of("rdmap.atomicRequest.atomicOpcode");
            case "rdmap.atomic.alignment" -> List.of("rdmap.atomicRequest.remoteTo");
            case "rdmap.atomic-response.match" -> List.of("rdmap.atomicResponse.requestId");
            case "rdmap.send-invalidate" -> List.of("rdmap.invalidateStag");
            case "rdmap.terminate.code", "rdmap.terminate.mismatch" -> List.of("rdmap.terminate.layer",
                    "rdmap.terminate.etype", "rdmap.terminate.code");
            case "rdmap.terminate.header-control" -> List.of("rdmap.terminate.m", "rdmap.terminate.d",
                    "rdmap.terminate.r");
            case "rdmap.terminate.terminated-header" -> List.of("rdmap.terminate.ddpSegmentLength",
                    "rdmap.terminate.ddpHeader");
            default -> List.of();
        };
    }

    /** Collects the faulty fields of one PDU the tester sends: their names and what they hold, in words. */
    static final class Faults {
        private final List<String> fields = new ArrayList<>();
        private final List<String> words = new ArrayList<>();

        /** A field set to a faulty value: {@code names} (filter names; more than one when they share its octets). */
        Faults add(String what, String... names) {
            for (String n : names) if (!fields.contains(n)) fields.add(n);
            words.add(what);
            return this;
        }

        boolean isEmpty() {
            return words.isEmpty();
        }

        List<String> fields() {
            return List.copyOf(fields);
        }

        String what() {
            return String.join(", ", words);
        }
    }
}
