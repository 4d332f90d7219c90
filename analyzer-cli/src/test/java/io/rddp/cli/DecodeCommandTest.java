package io.rddp.cli;

import io.rddp.testing.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class DecodeCommandTest {

    @TempDir
    Path tmp;

    private static Object[] run(String... args) {
        return CliRun.run(args);
    }

    private Path decodeTo(String... args) {
        Path out = tmp.resolve("out.txt");
        String[] all = Arrays.copyOf(args, args.length + 2);
        all[args.length] = "-o";
        all[args.length + 1] = out.toString();
        Object[] r = run(all);
        assertThat(r[0]).as("exit code; stderr: %s", r[2]).isEqualTo(0);
        return out;
    }

    @Test
    void defaultOutputIsOneLinePerPduWithFrameTimeEndpointsProtocolAndInfo() throws Exception {
        Path out = decodeTo("decode", RepoPaths.pcaps().resolve("siw/siw-rping-lo.pcap").toString());
        var lines = Files.readAllLines(out);
        assertThat(lines.get(0)).matches("\\s+4\\s+0\\.014619 10\\.0\\.2\\.15:39655 → 10\\.0\\.2\\.15:7174 MPA\\s+.*Request.*rev 2.*");
        assertThat(lines).anySatisfy(l -> assertThat(l).matches("\\s+9\\s+0\\.039300 .* RDMAP\\s+RDMA Read Request QN 1 MSN 1 MO 0 L .*size 64.*"));
        // rping -C 10 over siw: 2 handshake frames + 10 rounds of Send, Read Request, Read Response, Send, Send, Write, Send
        assertThat(lines).hasSizeGreaterThanOrEqualTo(2 + 10 * 7);
    }

    @Test
    void twoThreadsWriteTheOutputOfOne() throws Exception {
        // every capture of three of the repository's folders, in each format, filtered and not: the same bytes
        String[] folders;
        try (var files = java.util.stream.Stream.of("siw", "generated", "violations")
                .flatMap(d -> { try { return Files.list(RepoPaths.pcaps().resolve(d)); } catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); } })) {
            folders = files.map(Path::toString).filter(n -> n.matches(".*\\.pcap(ng)?(\\.gz)?$")).sorted().toArray(String[]::new);
        }
        assertThat(folders).hasSizeGreaterThan(50);
        for (String[] opts : new String[][]{{"-T", "jsonl"}, {"-T", "json"}, {"-T", "text", "-V", "-Y", "rdmap"},
                {"-T", "fields", "-e", "frame", "-e", "ddp.stag", "-e", "mpa.crc"}}) {
            Path o1 = tmp.resolve("one"), o2 = tmp.resolve("two");
            String[] one = java.util.stream.Stream.of(new String[]{"decode", "--threads", "1", "-o", o1.toString()},
                    opts, folders).flatMap(Arrays::stream).toArray(String[]::new);
            String[] two = one.clone();
            two[2] = "2";
            two[4] = o2.toString();
            Object[] a = run(one), b = run(two);
            assertThat(b[0]).isEqualTo(a[0]);
            assertThat(Files.readString(o2)).as(String.join(" ", opts)).isEqualTo(Files.readString(o1)).isNotEmpty();
        }
    }

    @Test
    void verboseOutputShowsTheFieldTreeWithRfcSections() throws Exception {
        Path out = decodeTo("decode", "-V", RepoPaths.pcaps().resolve("siw/siw-rping-lo.pcap").toString());
        String text = Files.readString(out);
        assertThat(text).contains("MPA Request Frame (RFC 5044 §7.1)", "IRD (RFC 6581): 1",
                "RDMA Read Request header (RFC 5040 §4.4)", "RDMA Read message size: 64", "DDP version (DV): 1");
    }

    @Test
    void verboseOutputShowsTheFramesEthernetIpAndTcpHeadersBeforeMpa() throws Exception {
        // frame 4 of siw-rping-lo, the MPA Request: the values tshark -V shows for that frame
        Path out = decodeTo("decode", "-V", "-Y", "frame == 4", RepoPaths.pcaps().resolve("siw/siw-rping-lo.pcap").toString());
        assertThat(Files.readAllLines(out)).containsSubsequence("    Ethernet II",
                "        Destination: 00:00:00:00:00:00", "        Type: 0x0800", "    Internet Protocol Version 4",
                "        Differentiated Services Field: 0x00", "        Identification: 0x98f8",
                "        Don't fragment: yes", "        Header Checksum: 0x8996",
                "        Source Address: 10.0.2.15", "    Transmission Control Protocol",
                "        Source Port: 39655", "        Sequence Number: 1", "        Sequence Number (raw): 3915058297",
                "        Acknowledgment Number: 1", "        Header Length: 32", "        Flags: 0x0018",
                "        Push: yes", "        TCP Segment Len: 24", "    MPA Request Frame (RFC 5044 §7.1)");
    }

    @Test
    void fieldsOfTheFramesHeadersArePrintedAsTsharkPrintsThem() throws Exception {
        // expected: tshark -r siw-rping-lo.pcap -Y "frame.number in {4 6}" -T fields -e ... (booleans: ours)
        Path out = decodeTo("decode", "-T", "fields", "-e", "frame", "-e", "eth.src", "-e", "eth.type", "-e",
                "ip.dsfield", "-e", "ip.id", "-e", "ip.flags.df", "-e", "ip.src", "-e", "tcp.srcport", "-e", "tcp.seq",
                "-e", "tcp.ack_raw", "-e", "tcp.flags", "-e", "tcp.flags.syn", "-e", "tcp.checksum", "-e", "tcp.len",
                "-e", "vlan.id", "-Y", "frame <= 6", RepoPaths.pcaps().resolve("siw/siw-rping-lo.pcap").toString());
        assertThat(Files.readAllLines(out)).containsExactly(
                "4\t00:00:00:00:00:00\t0x0800\t0x00\t0x98f8\ttrue\t10.0.2.15\t39655\t1\t1835487076\t0x0018\tfalse\t0x185c\t24\t",
                "6\t00:00:00:00:00:00\t0x0800\t0x00\t0x3a6c\ttrue\t10.0.2.15\t7174\t1\t3915058321\t0x0018\tfalse\t0x185c\t24\t");
    }

    @Test
    void displayFiltersTestTheFramesHeaders() throws Exception {
        String cap = RepoPaths.pcaps().resolve("generated/mixed.pcap").toString();
        Path v6 = decodeTo("decode", "-T", "fields", "-e", "frame", "-e", "ipv6.flow", "-e", "ipv6.nxt", "-Y",
                "ipv6 && tcp.flags.push && eth.type == 0x86dd", cap);
        assertThat(Files.readAllLines(v6)).isNotEmpty().allMatch(l -> l.matches("\\d+\t0x000000\t6"));
        // in mixed.pcap (tshark -T fields -e eth.src -e ip.src) 02:00:0a:00:00:01 sends from 10.0.0.1 only
        Path mac = tmp.resolve("mac.txt");
        assertThat(run("decode", "-o", mac.toString(), "-Y", "eth.src == 02:00:0a:00:00:01", cap)[0]).isEqualTo(0);
        Path ip = decodeTo("decode", "-Y", "ip.src == 10.0.0.1 && ip", cap);
        assertThat(Files.readAllLines(mac)).isEqualTo(Files.readAllLines(ip)).isNotEmpty();
    }

    @Test
    void missingFileIsExitTwoWithAClearMessage() {
        Object[] r = run("decode", tmp.resolve("nope.pcap").toString());
        assertThat(r[0]).isEqualTo(2);
        assertThat((String) r[2]).contains("nope.pcap").contains("no such file").doesNotContain("Exception");
    }

    @Test
    void unknownOptionIsExitTwo() {
        Object[] r = run("decode", "--frobnicate", "x.pcap");
        assertThat(r[0]).isEqualTo(2);
        assertThat((String) r[2]).contains("--frobnicate");
    }

    @Test
    void truncatedCaptureKeepsWhatWasDecodedAndNamesTheOffset() throws Exception {
        byte[] whole = Files.readAllBytes(RepoPaths.pcaps().resolve("siw/siw-rping-lo.pcap"));
        Path cut = tmp.resolve("cut.pcap");
        Files.write(cut, Arrays.copyOf(whole, whole.length / 2 + 7));
        Path out = tmp.resolve("cut.txt");
        Object[] r = run("decode", "-o", out.toString(), cut.toString());
        assertThat(r[0]).isEqualTo(2);
        String err = (String) r[2];
        assertThat(err).contains("cut.pcap").containsPattern("offset \\d+").contains("frame").doesNotContain("Exception");
        assertThat(Files.readAllLines(out)).hasSizeGreaterThan(10);
    }

    @Test
    void notACaptureIsExitTwo() throws Exception {
        Path junk = tmp.resolve("junk.pcap");
        Files.writeString(junk, "this is not a capture file at all");
        Object[] r = run("decode", junk.toString());
        assertThat(r[0]).isEqualTo(2);
        assertThat((String) r[2]).contains("junk.pcap").doesNotContain("Exception");
    }
}
