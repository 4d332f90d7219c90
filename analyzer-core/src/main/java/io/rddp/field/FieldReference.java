package io.rddp.field;

import java.util.ArrayList;
import java.util.List;

/** {@code docs/fields.md}: the field reference, generated from {@link FieldRegistry} (never edited by hand). */
public final class FieldReference {
    private FieldReference() {
    }

    public static String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("# Fields: every field `rddp decode` shows and the display filter knows\n\n");
        sb.append("Generated from `io.rddp.field.FieldRegistry` (`mvn -pl analyzer-core test -Dtest=FieldReferenceTest"
                + " -Drddp.updateDocs=true` rewrites it; the test fails when it is stale). Each field is declared"
                + " once, in its protocol's class in `io.rddp.field`: its *filter name* is the key `decode -T json`"
                + " writes and `-Y`/`-e` take, its *label* what `decode -V` and the GUI's packet-detail tree show,"
                + " its *base* how a number is shown there (`hex`: `0x%08x` for 32-bit identifiers, `0x%016x` for"
                + " 64-bit values in `-V` and JSON, Wireshark's width for its own hex fields: `0x%04x` for"
                + " `eth.type`, `ip.id`, `tcp.flags`, `0x%02x` for `ip.dsfield`, `0x%06x` for `ipv6.flow`; hex and"
                + " decimal in the GUI). A layer's own name is a filter"
                + " name too (true when the PDU has it). A field a layer repeats elsewhere (the terminated DDP header,"
                + " the segments of each chunk list) has one filter name per place.\n\n");
        sb.append("Types: `number` (unsigned), `64-bit number` (written in hex, never lossy), `boolean`, `text`,"
                + " `time` (`seconds.nanoseconds` text), `bytes`, `IPv4 address`, `IPv6 address`, `Ethernet address`"
                + " (`00:1b:21:0a:0b:0c`). RFC `-` marks what the analyzer itself adds.\n\n");
        sb.append("## Which frame's headers a PDU shows\n\n");
        sb.append("The `eth`, `vlan`, `ip` or `ipv6`, and `tcp` layers are the headers of the frame the PDU ends in"
                + " (its `frame`), as tshark shows a PDU reassembled from several TCP segments with the headers of"
                + " the frame that completes it; the segments before it show nowhere. `tcp.seq` and `tcp.ack` are"
                + " relative, as tshark's default: counted from the direction's SYN (0 at the SYN), or from one below"
                + " the first sequence number (or the peer's first acknowledgment) the capture shows; `tcp.seq_raw`"
                + " and `tcp.ack_raw` are the numbers on the wire, and both acknowledgment fields are there only"
                + " with ACK set. The names, values and formats are Wireshark's, checked against tshark 4.0 on the"
                + " bundled captures (and a VLAN-tagged copy of one) by `TsharkDifferentialTest`; Wireshark's IPv6"
                + " dissector also adds `ip.version` (6), which here is the IPv4 header's only. A PDU has no frame"
                + " headers when its frame carried no segment of its direction: a PDU framed only when a later frame"
                + " arrived (an FPDU held back while MPA parameters were inferred, or sent before the peer's MPA"
                + " Reply), or one delivered when the capture ended. Live decoding (`rddp peer`, the conformance"
                + " tester) has no frames and shows none. They are decoded only when something shows fields"
                + " (`-V`, JSON, `-T fields`, `-Y`, the GUI): a plain `decode` or `analyze` does not copy them.\n\n");
        for (Layer l : FieldRegistry.layers()) {
            List<Field> own = new ArrayList<>();
            for (Field f : FieldRegistry.fields()) {
                if (f.layer() == l) own.add(f);
            }
            sb.append("## ").append(l.key().isEmpty() ? "The PDU" : "`" + l.key() + "`").append(": ")
                    .append(l.description()).append("\n\n");
            sb.append(switch (l.shape()) {
                case ROOT -> "Fields without a prefix.";
                case LAYER -> "A layer: `" + l.key() + "` is true when the PDU has it.";
                case LIST -> "A list: its items' fields are named `" + l.key() + ".*`; the list itself is no"
                        + " filter name.";
                case PREFIX -> "Names from outside the PDU's description, added by the display filter.";
                case TEMPLATE -> "Fields shown where a layer holds them: "
                        + String.join(", ", mounts(l)) + ".";
            });
            if (!l.rfc().equals("-")) sb.append(" ").append(l.rfc()).append('.');
            if (l.template() != null) {
                sb.append(" Holds the fields of `").append(l.template().key()).append("` (").append(
                        l.template().description()).append(")").append(own.isEmpty() ? "." : ", and these:");
            }
            sb.append("\n\n");
            if (own.isEmpty()) continue;
            sb.append("| filter name | label | type | base | RFC | description |\n");
            sb.append("|---|---|---|---|---|---|\n");
            for (Field f : own) {
                List<String> names = FieldRegistry.filterNamesOf(f);
                sb.append("| ").append(names.isEmpty() ? "-" : "`" + String.join("`<br>`", names) + "`")
                        .append(" | ").append(cell(f.label())).append(" | ").append(f.type().text()).append(" | ")
                        .append(f.base().text()).append(" | ").append(f.rfc()).append(" | ")
                        .append(cell(f.description())).append(" |\n");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static List<String> mounts(Layer template) {
        List<String> out = new ArrayList<>();
        for (Layer l : FieldRegistry.layers()) {
            if (l.template() == template) out.add("`" + l.key() + "`");
        }
        return out;
    }

    private static String cell(String s) {
        return s.replace("|", "\\|");
    }
}
