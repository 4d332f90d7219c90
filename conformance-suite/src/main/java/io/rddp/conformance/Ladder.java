package io.rddp.conformance;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduListener;
import io.rddp.decode.PduSummary;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static io.rddp.conformance.ReportHtml.x;

/** A scenario's recorded exchange as a ladder diagram (SVG) with the wire bytes of each PDU, for report.html. */
final class Ladder {

    /** Ladder rows drawn per scenario at most. */
    static final int MAX_LADDER = 120;
    /** Octets of one PDU shown in the wire bytes at most. */
    static final int MAX_BYTES = 96;

    private Ladder() {
    }

    /** One PDU for the ladder. */
    private record Rung(long frame, long micros, boolean fromTester, String text, String hex) {
    }

    /** A ladder diagram (SVG) of the recorded exchange and the wire bytes of each PDU. */
    static void render(StringBuilder sb, Path pcap) {
        List<Rung> rungs = new ArrayList<>();
        try (CaptureReader reader = CaptureReaders.open(pcap)) {
            new DecodePipeline(new PduListener() {
                @Override
                public void onPdu(Pdu pdu) {
                    if (rungs.size() >= MAX_LADDER) return;
                    boolean tester = pdu.direction() == Direction.CLIENT_TO_SERVER;
                    String text = (pdu.stream() > 0 ? "[" + pdu.stream() + "] " : "")
                            + PduSummary.info(pdu, new StringBuilder());
                    rungs.add(new Rung(pdu.frame(), pdu.relativeNanos() / 1000, tester, text, bytes(pdu)));
                }

                @Override
                public void onClose(TcpConnection c, Direction d, boolean reset, long frame) {
                    if (rungs.size() >= MAX_LADDER) return;
                    rungs.add(new Rung(frame, -1, d == Direction.CLIENT_TO_SERVER,
                            (c.index() > 0 ? "[" + c.index() + "] " : "") + (reset ? "RST" : "FIN"), ""));
                }
            }).run(reader);
        } catch (IOException | RuntimeException e) {
            sb.append("<p class=\"note\">the recording could not be read: ").append(x(e.toString())).append("</p>");
            return;
        }
        int h = 24 * rungs.size() + 30;
        sb.append("<svg class=\"ladder\" width=\"760\" height=\"").append(h).append("\">")
                .append("<text x=\"40\" y=\"14\">tester</text><text x=\"690\" y=\"14\">DUT</text>")
                .append("<line x1=\"60\" y1=\"20\" x2=\"60\" y2=\"").append(h).append("\"/>")
                .append("<line x1=\"700\" y1=\"20\" x2=\"700\" y2=\"").append(h).append("\"/>");
        int y = 36;
        for (Rung r : rungs) {
            boolean bad = r.text.contains("Terminate") || r.text.contains("BAD CRC") || r.text.equals("RST")
                    || r.text.endsWith("] RST");
            String cls = bad ? "bad" : "ok";
            int x1 = r.fromTester ? 60 : 700, x2 = r.fromTester ? 700 : 60;
            sb.append("<line class=\"").append(cls).append("\" x1=\"").append(x1).append("\" y1=\"").append(y)
                    .append("\" x2=\"").append(x2).append("\" y2=\"").append(y).append("\" marker-end=\"url(#a)\"/>")
                    .append("<text class=\"").append(cls).append("\" x=\"70\" y=\"").append(y - 4).append("\">")
                    .append(x("#" + r.frame + " " + r.text)).append("</text>");
            y += 24;
        }
        sb.append("<defs><marker id=\"a\" markerWidth=\"8\" markerHeight=\"8\" refX=\"8\" refY=\"4\" orient=\"auto\">"
                + "<path d=\"M0,0 L8,4 L0,8 z\"/></marker></defs></svg>");
        sb.append("<details><summary>wire bytes</summary><pre>");
        for (Rung r : rungs) {
            if (r.hex.isEmpty()) continue;
            sb.append(x("#" + r.frame + (r.fromTester ? " tester → DUT  " : " DUT → tester  ") + r.hex)).append('\n');
        }
        sb.append("</pre></details>");
    }

    private static String bytes(Pdu pdu) {
        ByteBuffer b;
        if (pdu.startFrame() != null) b = ByteBuffer.wrap(pdu.startFrame().toBytes());
        else b = pdu.fpdu().ulpdu().duplicate();
        int n = Math.min(b.remaining(), MAX_BYTES);
        byte[] out = new byte[n];
        b.get(out);
        return HexFormat.of().formatHex(out) + (b.hasRemaining() ? "…" : "");
    }

}
