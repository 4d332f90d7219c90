package io.rddp.conformance;

import io.rddp.testing.LoopbackServer;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.Frame;
import io.rddp.rnic.link.Recorder;
import io.rddp.mpa.FpduEncoder;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.RdmapEncoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A hostile DUT that sends as fast as it can, for ever, cannot fill the tester's disk or memory: each scenario
 * against it ends with a verdict in bounded time, its recording stops at the record cap (and says so), the tester
 * keeps no more than the cap, the scenario fails citing the RFC rule the flood broke, and the run goes on.
 */
@org.junit.jupiter.api.Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES)
class FloodingDutTest {

    /** Small, so a flood passes it within a fraction of a second. */
    static final long CAP = 1L << 20;
    /** pcapng framing of the recorded octets (Ethernet/IP/TCP headers, blocks, ACKs, comments), the tester's octets. */
    static final long SLACK = 256L << 10;

    /** What the hostile DUT sends. */
    enum Flood {
        /** a valid MPA Reply, then random octets */
        GARBAGE_AFTER_REPLY,
        /** random octets where the MPA Reply belongs */
        GARBAGE_BEFORE_REPLY,
        /** a valid MPA Reply, then valid Sends, MSN counting up */
        SENDS_AFTER_REPLY
    }

    /** What the hostile DUT does with every connection: a flood until the tester goes away. */
    static final class HostileDut {
        private HostileDut() {
        }

        static void serve(Socket s, Flood flood) {
            try (s) {
                s.setTcpNoDelay(true);
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                Thread drain = new Thread(() -> {
                    try {
                        in.transferTo(OutputStream.nullOutputStream());
                    } catch (IOException ignored) {
                        // the tester went away
                    }
                }, "hostile-drain");
                drain.setDaemon(true);
                drain.start();
                byte[] random = new byte[64 * 1024];
                new Random(5044).nextBytes(random);
                if (flood != Flood.GARBAGE_BEFORE_REPLY) {
                    Thread.sleep(20); // the tester's Request first: a Responder answers it
                    out.write(MpaStartFrame.reply(false, false, false, 2,
                            new MpaStartFrame.Enhanced(1, 1, false, false, false, false), new byte[0]).toBytes());
                }
                if (flood == Flood.SENDS_AFTER_REPLY) {
                    FpduEncoder fpdus = new FpduEncoder(false, false, MpaStartFrame.HEADER_LENGTH + 4);
                    ByteBuffer payload = ByteBuffer.wrap(new byte[1000]);
                    java.io.ByteArrayOutputStream batch = new java.io.ByteArrayOutputStream();
                    for (long msn = 1; ; ) {
                        batch.reset();
                        for (int i = 0; i < 64; i++, msn++) {
                            for (var seg : RdmapEncoder.send(msn, payload.duplicate(), 1460).segments()) {
                                batch.writeBytes(fpdus.encode(seg.toByteBuffer(), FpduEncoder.Faults.NONE));
                            }
                        }
                        batch.writeTo(out);
                    }
                }
                while (true) out.write(random);
            } catch (IOException | InterruptedException ignored) {
                // the tester closed or reset the connection
            }
        }
    }

    /** The simplest passive DUT: connect, send the scenario's Request, take whatever Reply comes. */
    static final class PlainDut implements Dut {
        final InetSocketAddress target;
        final List<ScriptedConnection> opened = new CopyOnWriteArrayList<>();

        PlainDut(InetSocketAddress target) {
            this.target = target;
        }

        @Override
        public String profile() {
            return "rping";
        }

        @Override
        public Set<String> capabilities() {
            return Set.of("mpa-rev2");
        }

        @Override
        public String describe() {
            return "a hostile DUT at " + target;
        }

        @Override
        public Session open(Setup s, Recorder recorder, Timeouts t) throws Exception {
            ScriptedConnection c = ScriptedConnection.connect(target, t.connect(), recorder);
            opened.add(c);
            if (s.request() != null) {
                c.sendStartFrame(s.request());
                MpaStartFrame reply = c.awaitStartFrame(t.connect());
                if (reply != null && !reply.reject()) c.fullOperation();
            }
            return new Session(c, null, -1, -1);
        }

        @Override
        public String liveness(Recorder recorder, Timeouts t) throws Exception {
            try (ScriptedConnection c = ScriptedConnection.connect(target, t.connect(), recorder)) {
                opened.add(c);
                c.sendStartFrame(Setup.defaults().request());
                return c.awaitStartFrame(t.connect()) == null ? "no MPA Reply to a fresh connection" : null;
            }
        }

        @Override
        public String placement(Session s, List<long[]> allowed) {
            return null;
        }

        @Override
        public void reset() {
        }

        @Override
        public void close() {
        }
    }

    /** Scenarios that ran in a row against a flood, with what the tester kept. */
    record Run(List<Result> results, long millis, long heapGrowth, List<ScriptedConnection> connections) {
    }

    private static Run run(Flood flood, Path dir) throws Exception {
        try (LoopbackServer hostile = new LoopbackServer("hostile-flood", (s, srv) -> HostileDut.serve(s, flood))) {
            PlainDut dut = new PlainDut(hostile.address());
            long before = usedHeapAfterGc();
            long t0 = System.nanoTime();
            // a positive scenario (it may end before the flood passes the cap), then two negative ones, which wait
            // for the DUT's reaction while it floods (their liveness checks meet the flood again)
            List<Result> rs = new Runner(dut, Timeouts.defaults().scaled(0.3), dir, r -> { }).recordCap(CAP)
                    .run(pick("mpa.startup.rev2-enhanced", "mpa.startup.bad-key", "mpa.startup.zero-key"));
            long millis = (System.nanoTime() - t0) / 1_000_000L;
            // every connection is still referenced: what the tester kept of them is on the heap now
            long growth = usedHeapAfterGc() - before;
            return new Run(rs, millis, growth, dut.opened);
        }
    }

    private static List<Scenario> pick(String... ids) {
        List<Scenario> out = new ArrayList<>();
        for (String id : ids) {
            out.add(Catalog.load().scenarios().stream().filter(s -> s.info().id().equals(id)).findFirst()
                    .orElseThrow(() -> new AssertionError("no scenario " + id)));
        }
        return out;
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static void assertBounded(Run run, Path dir) throws IOException {
        StringBuilder sizes = new StringBuilder();
        for (Result r : run.results()) sizes.append(' ').append(Files.size(dir.resolve(r.pcap())));
        String table = PeerSuiteTest.table(run.results()) + "\nheap growth " + run.heapGrowth() + " B, " + run.millis()
                + " ms, pcapng sizes" + sizes + " B";
        if (Boolean.getBoolean("rddp.table")) System.out.println("heap growth " + run.heapGrowth() + " B, "
                + run.millis() + " ms, pcapng sizes" + sizes + " B");
        assertThat(run.results()).as(table).hasSize(3);
        assertThat(run.millis()).as(table).isLessThan(30_000);
        for (Result r : run.results()) {
            assertThat(r.verdict()).as(table).isIn(Result.Verdict.PASS, Result.Verdict.FAIL);
            Path pcap = dir.resolve(r.pcap());
            assertThat(Files.size(pcap)).as(r.id() + " recording").isLessThanOrEqualTo(CAP + SLACK);
            assertThat(truncationMarks(pcap)).as(r.id() + " truncation comment").isEqualTo(r.truncated() ? 1 : 0);
            if (!r.truncated()) continue;
            assertThat(r.verdict()).as(table).isEqualTo(Result.Verdict.FAIL);
            assertThat(r.notes().get(0)).as(table).startsWith("the DUT sent ")
                    .contains("more than the record cap of 1 MiB").contains("; it broke RFC ");
        }
        assertThat(run.results().subList(1, 3)).as(table).allMatch(Result::truncated);
        for (ScriptedConnection c : run.connections()) {
            long kept = c.dutPdus().stream().mapToLong(p -> p.payload() == null ? 0 : p.payload().length).sum();
            assertThat(kept).as("payload kept").isLessThanOrEqualTo(CAP);
            assertThat(c.dutPdus()).hasSizeLessThanOrEqualTo(ScriptedConnection.MAX_PDUS + 2);
            assertThat(c.violations()).hasSizeLessThanOrEqualTo(ScriptedConnection.MAX_VIOLATIONS);
        }
        // the flood was real: the tester read and judged many times the cap, and kept a bounded heap
        long read = run.connections().stream().mapToLong(ScriptedConnection::dutBytes).sum();
        assertThat(read).as(table).isGreaterThan(4 * CAP);
        assertThat(run.heapGrowth()).as(table).isLessThan(48L << 20);
    }

    private static int truncationMarks(Path pcap) throws IOException {
        int n = 0;
        try (CaptureReader reader = CaptureReaders.open(pcap)) {
            Frame f = new Frame();
            while (reader.next(f)) if (f.comment != null && f.comment.contains("recording truncated")) n++;
        }
        return n;
    }

    /** A flood's pace depends on the machine's load: a run that missed is run again, at most this often in all. */
    private static final int ATTEMPTS = 3;

    private interface Also {
        void check(Run run);
    }

    /** Runs the flood until a run holds every bound (and {@code also}), at most {@link #ATTEMPTS} times, saying so. */
    private static void floodIsBounded(Flood flood, Path dir, Also also) throws Exception {
        for (int attempt = 1; ; attempt++) {
            Path d = Files.createDirectories(dir.resolve("attempt-" + attempt));
            Run run = run(flood, d);
            try {
                assertBounded(run, d);
                also.check(run);
                return;
            } catch (AssertionError e) {
                if (attempt == ATTEMPTS) throw e;
                System.out.println("FloodingDutTest " + flood + ": attempt " + attempt + " of " + ATTEMPTS
                        + " missed (" + e.getMessage().lines().findFirst().orElse("") + "), run again");
            }
        }
    }

    @Test
    void garbageAfterTheMpaReplyFailsOnFramingWithABoundedRecording(@TempDir Path dir) throws Exception {
        floodIsBounded(Flood.GARBAGE_AFTER_REPLY, dir, run -> { });
    }

    @Test
    void garbageInsteadOfAnMpaReplyFailsOnTheStartFrameWithABoundedRecording(@TempDir Path dir) throws Exception {
        floodIsBounded(Flood.GARBAGE_BEFORE_REPLY, dir, run ->
                assertThat(run.results().get(1).notes().get(0)).contains("it broke RFC 5044 §7.1"));
    }

    @Test
    void validSendsPastTheCapFailAsSendsWithNoReceivePosted(@TempDir Path dir) throws Exception {
        floodIsBounded(Flood.SENDS_AFTER_REPLY, dir, run ->
                assertThat(run.results().get(1).notes().get(0)).contains("Sends begun past the cap")
                        .contains("it broke RFC 5041 §7.1: ddp.untagged.no-buffer"));
    }
}
