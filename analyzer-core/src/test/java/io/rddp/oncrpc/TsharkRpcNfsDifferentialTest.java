package io.rddp.oncrpc;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.decode.TsharkDifferentialTest;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaListener;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.rpcrdma.RpcRdmaStage;
import io.rddp.testing.RepoPaths;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Second opinion on the RPC messages RPC-over-RDMA carries: in the captures of real NFS traffic (pcaps/nfs-rdma/,
 * the Linux NFS client against Linux's nfsd over siw) and the generated NFS capture, every RPC message we decode,
 * inline or rebuilt from a Reply chunk, has tshark's RPC header (RFC 5531 §9: XID, call or reply, program, version,
 * procedure, reply and accept status) and tshark's NFS result: the nfsstat3 of an NFSv3 reply (RFC 1813 §2.6), and
 * for an NFSv4 COMPOUND (RFC 8881 §16.2) each operation in order with, in a reply, its status. Both decode the same
 * calls and replies, matched by XID and direction: a call whose data item went in a Read chunk (a WRITE) is shown
 * by tshark at the Read Response that completes the chunk, by us at its Send (RFC 8166 §3.4.5: the Send carries the
 * whole call but the reduced item), so frames are not what is compared.
 */
class TsharkRpcNfsDifferentialTest {

    private static final String[] FIELDS = {"frame.number", "rpc.xid", "rpc.msgtyp", "rpc.program",
            "rpc.programversion", "rpc.procedure", "rpc.replystat", "rpc.state_accept", "nfs.status3", "nfs.opcode",
            "nfs.nfsstat4"};

    static List<Path> captures() throws IOException {
        List<Path> caps = new ArrayList<>();
        Path real = RepoPaths.pcaps().resolve("nfs-rdma");
        if (Files.isDirectory(real)) {
            try (Stream<Path> s = Files.walk(real)) {
                s.filter(p -> p.toString().endsWith(".pcap")).sorted().forEach(caps::add);
            }
        }
        caps.add(RepoPaths.pcaps().resolve("generated/nfs-rdma-crc.pcap"));
        return caps;
    }

    @TestFactory
    Stream<DynamicTest> everyRpcHeaderAndNfsResultEqualsTsharks() throws IOException {
        assumeThat(io.rddp.testing.TsharkFields.available()).as("tshark is not installed: differential test skipped")
                .isTrue();
        List<Path> caps = captures();
        assertThat(caps).as("the kernel's NFS/RDMA captures").hasSizeGreaterThanOrEqualTo(4);
        return caps.stream().map(c -> DynamicTest.dynamicTest(RepoPaths.pcaps().relativize(c).toString(),
                () -> compare(c)));
    }

    private static void compare(Path cap) throws Exception {
        Map<String, String> ours = ours(cap);
        Map<String, String> theirs = new TreeMap<>();
        for (String line : tshark(cap)) {
            String[] f = line.split("\t", -1);
            if (f.length < 2 || f[1].isEmpty()) continue;
            String v = theirs(f);
            theirs.putIfAbsent(key(v), v);
        }
        assertThat(ours).as("RPC messages in %s", cap.getFileName()).hasSizeGreaterThan(20);
        assertThat(theirs.keySet()).as("calls and replies in %s", cap.getFileName())
                .containsExactlyElementsOf(ours.keySet());
        for (var e : ours.entrySet()) {
            assertThat(theirs.get(e.getKey())).as("%s of %s", e.getKey(), cap.getFileName()).isEqualTo(e.getValue());
        }
    }

    /**
     * tshark's fields in our notation: decimal numbers, NFSv4 operations by name with their status in a reply.
     * tshark shows a READ reply whose data came in a Write chunk twice in its frame (the message as sent, then with
     * the chunk's data put back): both copies are the same message, the first is kept.
     */
    private static String theirs(String[] all) {
        int copies = all[1].split(",").length;
        String[] f = all.clone();
        for (int i = 1; i < f.length; i++) {
            String[] items = f[i].isEmpty() ? new String[0] : f[i].split(",");
            if (copies > 1 && items.length % copies == 0) {
                f[i] = String.join(",", java.util.Arrays.copyOf(items, items.length / copies));
            }
        }
        assertThat(all[1].split(",")).as("copies of one RPC message in frame %s", all[0]).containsOnly(f[1]);
        boolean call = f[2].equals("0");
        String version = f[4].split(",")[0];
        List<String> out = new ArrayList<>(List.of(Long.toString(Long.decode(f[1])), call ? "call" : "reply", f[3],
                version, f[5]));
        if (!call) {
            out.add(f[6]);
            out.add(f[7]);
        }
        if (f[3].equals("100003") && version.equals("3") && !call && !f[8].isEmpty()) out.add("status " + f[8]);
        if (f[3].equals("100003") && version.equals("4") && !f[9].isEmpty()) {
            String[] ops = f[9].split(",");
            String[] st = f[10].isEmpty() ? new String[0] : f[10].split(",");
            List<String> named = new ArrayList<>();
            for (int i = 0; i < ops.length; i++) {
                String name = Nfs.opName(Long.parseLong(ops[i]));
                // nfs.nfsstat4: the COMPOUND's status first, then one per operation result
                if (!call && i + 1 < st.length) name += " " + RpcNames.nfsStatus(Long.parseLong(st[i + 1]));
                named.add(name);
            }
            if (!call && st.length > 0) out.add("status " + st[0]);
            out.add(String.join(", ", named));
        }
        return String.join("\t", out);
    }

    /** "XID call" or "XID reply": the first two fields of a message's line. */
    private static String key(String line) {
        String[] f = line.split("\t");
        return String.format("%010d %s", Long.parseLong(f[0]), f[1]);
    }

    /** Our RPC messages, inline or rebuilt from a chunk, by XID and direction. */
    private static Map<String, String> ours(Path cap) throws IOException {
        Map<String, String> out = new TreeMap<>();
        RpcRdmaListener l = (Pdu pdu, RpcRdmaMessage m, ChunkMove move) -> {
            if (m == null || m.rpc() == null) return;
            RpcMessage r = m.rpc();
            List<String> v = new ArrayList<>(List.of(Long.toString(r.xid()), r.call() ? "call" : "reply",
                    Long.toString(r.program()), Long.toString(r.version()), Long.toString(r.procedure())));
            if (!r.call()) {
                v.add(Integer.toString(r.replyStat()));
                v.add(r.acceptStat() < 0 ? "" : Long.toString(r.acceptStat()));
            }
            UlpInfo u = r.ulp();
            if (r.program() == RpcNames.NFS && r.version() == 3 && !r.call() && u != null && u.status() >= 0) {
                v.add("status " + u.status());
            }
            if (r.program() == RpcNames.NFS && r.version() == 4 && u != null && !u.operations().isEmpty()) {
                if (!r.call() && u.status() >= 0) v.add("status " + u.status());
                v.add(String.join(", ", u.operations()));
            }
            String line = String.join("\t", v);
            out.putIfAbsent(key(line), line);
        };
        try (CaptureReader r = CaptureReaders.open(cap)) {
            new DecodePipeline(new RpcRdmaStage(l, RpcRdmaStage.DecodeAs.AUTO)).run(r);
        }
        return out;
    }

    private static List<String> tshark(Path cap) throws Exception {
        return io.rddp.testing.TsharkFields.run(cap, FIELDS);
    }
}
