package io.rddp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rddp.rnic.Bug;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicConfig;
import io.rddp.rnic.RnicListener;
import io.rddp.rnic.app.rpcrdma.RpcRdmaResponder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rddp conform --profile rpcrdma} against the reference RPC-over-RDMA responder over loopback: the profile's
 * name in the console, report.json, junit.xml and report.html as the other profiles' are; {@code --list},
 * {@code --only} and baselines; the export options; a knob of the responder failing the run.
 */
@org.junit.jupiter.api.Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES)
class ConformRpcRdmaCliTest {

    @TempDir
    Path tmp;

    private record Run(int rc, String out, String err) {
    }

    private static Run conform(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        String[] all = new String[args.length + 1];
        all[0] = "conform";
        System.arraycopy(args, 0, all, 1, args.length);
        int rc = cl.execute(all);
        return new Run(rc, out.toString(), err.toString());
    }

    private interface Body {
        void run(String target) throws Exception;
    }

    private static void withResponder(Set<Bug> bugs, Body body) throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults().withBugs(bugs), null)) {
            RpcRdmaResponder responder = new RpcRdmaResponder(rnic, RpcRdmaResponder.Options.defaults());
            RnicListener l = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), true,
                    responder.listenerSettings());
            Thread t = responder.serveInBackground(l);
            try {
                body.run("127.0.0.1:" + l.address().getPort());
            } finally {
                t.interrupt();
                t.join(5000);
            }
        }
    }

    @Test
    void listShowsAtLeastFortyScenariosOfTheRpcrdmaProfile() {
        Run r = conform("--list", "--only", "rpcrdma.*");
        assertThat(r.rc()).isZero();
        long n = r.out().lines().filter(l -> l.startsWith("rpcrdma.") && l.contains(" rpcrdma ")).count();
        assertThat(n).as(r.out()).isGreaterThanOrEqualTo(40);
    }

    @Test
    void theProfileIsNamedInTheConsoleAndEveryReportArtifact() throws Exception {
        withResponder(Set.of(), target -> {
            Path dir = tmp.resolve("report");
            Run r = conform("--profile", "rpcrdma", "--target", target, "--only", "rpcrdma.header.*,rpcrdma.rpc.*",
                    "--jobs", "4", "--report", dir.toString());
            assertThat(r.rc()).as(r.out() + r.err()).isZero();
            assertThat(r.out()).contains("(profile rpcrdma)").contains("PASS  strict        rpcrdma.header.version-2");
            JsonNode json = new ObjectMapper().readTree(dir.resolve("report.json").toFile());
            assertThat(json.path("dut").path("profile").asText()).isEqualTo("rpcrdma");
            assertThat(json.path("options").path("rpcrdma-export").asText()).contains("file scratch");
            assertThat(Files.readString(dir.resolve("junit.xml"), StandardCharsets.UTF_8))
                    .contains("name=\"profile\" value=\"rpcrdma\"");
            assertThat(Files.readString(dir.resolve("report.html"), StandardCharsets.UTF_8)).contains(">rpcrdma<");
            assertThat(dir.resolve("pcaps").resolve("rpcrdma.header.version-2.pcapng")).exists();
        });
    }

    @Test
    void aBaselineWrittenAgainstAKnobWaivesItsFailuresAndTheCorrectResponderImprovesOnIt() throws Exception {
        Path base = tmp.resolve("base.json");
        withResponder(Set.of(Bug.RPCRDMA_ERR_VERS_RANGE), target -> {
            Run failing = conform("--profile", "rpcrdma", "--target", target, "--only", "rpcrdma.header.version-*");
            assertThat(failing.rc()).as(failing.out()).isEqualTo(1);
            assertThat(failing.out()).contains("FAIL").contains("rpcrdma.header.version-2");
            Run written = conform("--profile", "rpcrdma", "--target", target, "--only", "rpcrdma.header.version-*",
                    "--write-baseline", base.toString());
            assertThat(written.rc()).as(written.out()).isZero();
            Run waived = conform("--profile", "rpcrdma", "--target", target, "--only", "rpcrdma.header.version-*",
                    "--baseline", base.toString());
            assertThat(waived.rc()).as(waived.out()).isZero();
            assertThat(waived.out()).contains("waived");
        });
        withResponder(Set.of(), target -> {
            Run better = conform("--profile", "rpcrdma", "--target", target, "--only", "rpcrdma.header.version-*",
                    "--baseline", base.toString(), "--fail-stale-baseline");
            assertThat(better.rc()).as(better.out()).isEqualTo(1);
            assertThat(better.out()).contains("improvement");
        });
    }

    @Test
    void anRpcrdmaTargetWithoutAPortIsTheNfsRdmaPort() {
        assertThat(ConformCommand.withDefaultPort("rpcrdma", "10.0.0.5")).isEqualTo("10.0.0.5:20049");
        assertThat(ConformCommand.withDefaultPort("rpcrdma", "10.0.0.5:7777")).isEqualTo("10.0.0.5:7777");
        assertThat(ConformCommand.withDefaultPort("rpcrdma", "[::1]")).isEqualTo("[::1]:20049");
        assertThat(ConformCommand.withDefaultPort("rpcrdma", "[::1]:7")).isEqualTo("[::1]:7");
        assertThat(ConformCommand.withDefaultPort("rping", "7174")).isEqualTo("7174");
    }

    @Test
    void aRootHandleThatIsNotHexIsRefusedAndAnUnknownProfileNamesRpcrdma() {
        Run bad = conform("--profile", "rpcrdma", "--target", "127.0.0.1", "--rpcrdma-root-fh", "xyz", "--only",
                "rpcrdma.positive.null");
        assertThat(bad.rc()).isEqualTo(2);
        assertThat(bad.err()).contains("--rpcrdma-root-fh xyz is not hex");
        Run none = conform("--profile", "nfs", "--target", "127.0.0.1:1");
        assertThat(none.err()).contains("agent, rping, rping-client or rpcrdma");
    }
}
