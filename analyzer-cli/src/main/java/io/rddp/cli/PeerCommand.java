package io.rddp.cli;

import io.rddp.Plural;
import io.rddp.dut.ControlServer;
import io.rddp.rnic.link.Recorder;
import io.rddp.rnic.Admission;
import io.rddp.rnic.Bug;
import io.rddp.rnic.ConnectionSettings;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicConfig;
import io.rddp.rnic.RnicControl;
import io.rddp.rnic.RnicListener;
import io.rddp.rnic.app.Perftest;
import io.rddp.rnic.app.Rping;
import io.rddp.rnic.app.rpcrdma.RpcRdmaRequester;
import io.rddp.rnic.app.rpcrdma.RpcRdmaResponder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

@Command(name = "peer",
        description = {"Run the emulated iWARP RNIC: an rping or perftest peer for real RDMA stacks, or a device under"
                + " test driven through the DUT control protocol (rddp conform --profile agent).",
                "Every PDU it receives is judged by the same sink model as 'rddp analyze'; a PDU in error gets the"
                        + " Terminate the model names (RFC 5040 §7.1).",
                "Bounded for broken or hostile peers: the MPA start-up times out, connections in start-up and"
                        + " established ones are capped overall and per remote address (silent ones make room for"
                        + " new clients), idle ones are reset, inbound Read Requests beyond the IRD are terminated"
                        + " whatever the MPA revision."},
        sortOptions = false,
        footer = {"", "Examples:",
                "  rddp peer --listen 7174 --app rping                 serve rping clients (rping -c -a HOST -v -V -C 10)",
                "  rddp peer --connect 10.0.2.15:7174 --app rping --count 10 --verify",
                "  rddp peer --listen 18515 --app perftest             serve ib_write_bw/ib_read_bw/ib_send_bw -R",
                "  rddp peer --listen 20049 --app rpcrdma --pcap nfs.pcapng   an RPC-over-RDMA (NFSv3) responder",
                "  rddp peer --connect 127.0.0.1:20049 --app rpcrdma   its requester: NULL, GETATTR, READ, WRITE, READDIR",
                "  rddp peer --listen 7777 --control 7174 --pcap peer.pcapng      control on 127.0.0.1:7174 only",
                "  rddp peer --listen 7777 --control 0.0.0.0:7174 --token-file dut.token   reachable from other hosts",
                "  rddp peer --list-bugs",
                "Exit codes: 0 done, 1 the application failed, 2 bad usage (port in use, unreachable target, unknown"
                        + " knob)."})
final class PeerCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @picocli.CommandLine.Mixin
    HelpOption help;

    @Option(names = "--listen", paramLabel = "[HOST:]PORT", description = "Accept iWARP connections here (the MPA Responder).")
    String listen;

    @Option(names = "--connect", paramLabel = "HOST:PORT", description = "Connect to an iWARP peer (the MPA Initiator).")
    String connect;

    @Option(names = "--app", paramLabel = "APP", description = "rping, perftest (server only), rpcrdma (an RPC-over-RDMA v1"
            + " NFSv3 responder, or with --connect its requester) or none (default: none).")
    String app = "none";

    @Option(names = "--control", paramLabel = "[HOST:]PORT", description = "Serve the DUT control protocol here"
            + " (docs/dut-control.md); PORT alone binds 127.0.0.1. Any other address needs --token-file.")
    String control;

    @Option(names = "--token-file", paramLabel = "FILE", description = "The control channel's shared secret (made,"
            + " mode 0600, when missing; refused when group or others can read it): the tester proves it knows it"
            + " (rddp conform --control-token-file FILE). See docs/security.md.")
    Path tokenFile;

    @Option(names = "--control-hello-timeout", paramLabel = "SECONDS", description = "A control connection that has"
            + " not authenticated by then is closed (default ${DEFAULT-VALUE}).")
    int helloTimeout = 5;

    @Option(names = "--control-idle-timeout", paramLabel = "SECONDS", description = "A control session silent this"
            + " long is closed (default ${DEFAULT-VALUE}).")
    int controlIdleTimeout = 600;

    @Option(names = "--control-takeover", paramLabel = "SECONDS", description = "A newly authenticated tester takes"
            + " over a session idle this long; a busier one refuses it (default ${DEFAULT-VALUE}).")
    int takeover = 30;

    @Option(names = "--inline", paramLabel = "BYTES", description = "rpcrdma: the responder's inline threshold, a"
            + " multiple of 1024 up to 4096 (default ${DEFAULT-VALUE}; RFC 8166 §3.3.2).")
    int inline = RpcRdmaResponder.DEFAULT_INLINE;

    @Option(names = "--credits", paramLabel = "N", description = "rpcrdma: receives the responder keeps posted and"
            + " the most credits it grants (default ${DEFAULT-VALUE}; RFC 8166 §3.3.1).")
    int credits = RpcRdmaResponder.DEFAULT_CREDITS;

    @Option(names = "--count", paramLabel = "N", description = "rping client: pings (default ${DEFAULT-VALUE}).")
    int count = 10;

    @Option(names = "--size", paramLabel = "BYTES", description = "rping: ping size (default 64); perftest: the"
            + " clients' -s (default 65536).")
    Integer size;

    @Option(names = "--verify", description = "rping client: compare what came back with what was sent (rping -V).")
    boolean verify;

    @Option(names = {"-v", "--verbose"}, description = "rping: print the ping data (rping -v).")
    boolean verbose;

    @Option(names = "--connections", paramLabel = "N", description = "Exit after serving N clients (default: run until killed).")
    int connections;

    @Option(names = "--duration", paramLabel = "SECONDS", description = "Exit after this long (control mode and servers).")
    int duration;

    @Option(names = "--mpa-rev", paramLabel = "1|2", description = "MPA revision to request and the only one accepted"
            + " (default: request 2, accept 1 and 2).")
    Integer mpaRev;

    @Option(names = "--crc", description = "Ask for CRC32c on every FPDU (RFC 5044 §7.1.1: used when either side asks).")
    boolean crc;

    @Option(names = "--markers", description = "Ask for Markers on what this side receives (RFC 5044 §4.3).")
    boolean markers;

    @Option(names = "--refuse-markers", description = "Reject peers that ask for Markers (R = 1), as siw does.")
    boolean refuseMarkers;

    @Option(names = "--ird", paramLabel = "N", description = "Inbound RDMA Read/Atomic Requests at once (default ${DEFAULT-VALUE}).")
    int ird = 16;

    @Option(names = "--ord", paramLabel = "N", description = "Outbound RDMA Read/Atomic Requests at once (default ${DEFAULT-VALUE}).")
    int ord = 16;

    @Option(names = "--p2p", description = "Initiate peer-to-peer connections (RFC 6581: an RTR follows the Reply).")
    boolean p2p;

    @Option(names = "--rtr", paramLabel = "TYPES", split = ",", description = "RTR types offered and accepted:"
            + " write, send, read (default: all).")
    List<String> rtr;

    @Option(names = "--mss", paramLabel = "BYTES", description = "TCP segment size FPDUs are sized for (default ${DEFAULT-VALUE}).")
    int mss = 1460;

    @Option(names = "--zero-based-to", description = "Tagged Offsets start at 0 instead of a virtual address.")
    boolean zeroBasedTo;

    @Option(names = "--mpa-timeout", paramLabel = "SECONDS", description = "The whole MPA start frame exchange must be"
            + " over this long after TCP connected, or the connection is closed (default 3; RFC 5044 §7.1.2: a"
            + " reasonable timeout).")
    Double mpaTimeout;

    @Option(names = "--idle-timeout", paramLabel = "SECONDS", description = "Reset an established connection of"
            + " --listen with no traffic either way for this long; 0: never (default 30 with --app rping|perftest|rpcrdma,"
            + " else 0).")
    Double idleTimeout;

    @Option(names = "--max-startup", paramLabel = "N[/PER_SOURCE]", description = "Connections in the MPA start-up at"
            + " once, and from one remote address; beyond, the oldest silent one is reset to make room (default"
            + " 32/8).")
    String maxStartup;

    @Option(names = "--max-established", paramLabel = "N[/PER_SOURCE]", description = "Established connections at"
            + " once, and from one remote address; beyond, the one idle longest is reset to make room (default"
            + " 32/16).")
    String maxEstablished;

    @Option(names = "--pcap", paramLabel = "FILE", description = "Record every connection as pcapng (both directions,"
            + " real times, synthetic Ethernet/IP/TCP headers) for 'rddp analyze'.")
    Path pcap;

    @Option(names = "--bug", paramLabel = "NAME", description = "Misbehave on purpose (repeatable); see --list-bugs.")
    List<String> bugs = new ArrayList<>();

    @Option(names = "--list-bugs", description = "List the bug knobs: name, a tab, what it breaks.")
    boolean listBugs;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true);
        if (listBugs) {
            for (Bug b : Bug.values()) out.println(b.knob() + "\t" + b.description());
            return Main.EXIT_OK;
        }
        RnicConfig config;
        try {
            config = config();
        } catch (IllegalArgumentException e) {
            err.println("rddp: " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        if ((listen == null) == (connect == null)) {
            err.println("rddp: give exactly one of --listen and --connect");
            return Main.EXIT_BAD_INPUT;
        }
        if (!Set.of("none", "rping", "perftest", "rpcrdma").contains(app)) {
            err.println("rddp: --app must be rping, perftest, rpcrdma or none, got '" + app + "'");
            return Main.EXIT_BAD_INPUT;
        }
        if (listen != null && app.equals("none") && control == null) {
            err.println("rddp: --listen needs --app rping|perftest|rpcrdma or --control");
            return Main.EXIT_BAD_INPUT;
        }
        if (connect != null && !app.equals("rping") && !app.equals("rpcrdma")) {
            err.println("rddp: --connect runs --app rping or rpcrdma (perftest is served with --listen)");
            return Main.EXIT_BAD_INPUT;
        }
        RpcRdmaResponder.Options rpcrdma;
        try {
            rpcrdma = new RpcRdmaResponder.Options(inline, credits);
        } catch (IllegalArgumentException e) {
            err.println("rddp: --inline/--credits: " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        Recorder recorder = null;
        if (pcap != null) {
            try {
                recorder = Recorder.create(pcap);
            } catch (IOException e) {
                err.println("rddp: cannot write " + pcap + ": " + e.getMessage());
                return Main.EXIT_BAD_INPUT;
            }
        }
        Recorder rec = recorder;
        Rnic rnic = new Rnic(config, recorder);
        Thread hook = new Thread(() -> shutdown(rnic, rec));
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return connect != null ? client(rnic, out, err) : server(rnic, rpcrdma, out, err);
        } finally {
            shutdown(rnic, rec);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down already
            }
        }
    }

    private int client(Rnic rnic, PrintStream out, PrintWriter err) throws InterruptedException {
        InetSocketAddress target;
        try {
            target = address(connect, null);
        } catch (IllegalArgumentException | UnknownHostException e) {
            err.println("rddp: --connect " + connect + ": " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        if (app.equals("rpcrdma")) {
            try {
                RpcRdmaRequester.run(rnic, target, out);
                out.println("rddp peer: rpcrdma requester against " + connect + " done");
                return Main.EXIT_OK;
            } catch (RpcRdmaRequester.Failure e) {
                err.println("rddp: rpcrdma requester: " + e.getMessage());
                return e.getMessage().startsWith("connect error") && e.getMessage().contains("cannot connect")
                        ? Main.EXIT_BAD_INPUT : Main.EXIT_FINDINGS;
            }
        }
        try {
            Rping.client(rnic, target, count, size != null ? size : 64, verify, verbose, out);
            out.println("rddp peer: " + Plural.of(count, "ping") + " to " + connect + " done");
            return Main.EXIT_OK;
        } catch (Rping.Failure e) {
            boolean unreachable = e.getMessage().startsWith("connect error") && e.getMessage().contains("cannot"
                    + " connect");
            err.println("rddp: rping client: " + e.getMessage());
            return unreachable ? Main.EXIT_BAD_INPUT : Main.EXIT_FINDINGS;
        }
    }

    private int server(Rnic rnic, RpcRdmaResponder.Options rpcrdma, PrintStream out, PrintWriter err)
            throws Exception {
        InetSocketAddress bind;
        try {
            bind = address(listen, "0.0.0.0");
        } catch (IllegalArgumentException | UnknownHostException e) {
            err.println("rddp: --listen " + listen + ": " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        // the control channel's address and token are checked before anything listens
        ControlServer.Options options = null;
        InetSocketAddress at = null;
        if (control != null) {
            try {
                at = address(control, "127.0.0.1");
                options = controlOptions(at);
            } catch (UnknownHostException e) {
                err.println("rddp: --control " + control + ": " + e.getMessage());
                return Main.EXIT_BAD_INPUT;
            } catch (IllegalArgumentException | IOException e) {
                err.println("rddp: " + e.getMessage());
                return Main.EXIT_BAD_INPUT;
            }
        } else if (tokenFile != null) {
            err.println("rddp: --token-file goes with --control");
            return Main.EXIT_BAD_INPUT;
        }
        RpcRdmaResponder responder = app.equals("rpcrdma") ? new RpcRdmaResponder(rnic, rpcrdma) : null;
        ConnectionSettings settings = switch (app) {
            case "rping" -> Rping.serverSettings(rnic);
            case "rpcrdma" -> responder.listenerSettings();
            case "perftest" -> Perftest.controlSettings(rnic);
            default -> ConnectionSettings.defaults(rnic).withRecv(16, 4096);
        };
        Admission admission;
        try {
            admission = admission(rnic.config());
        } catch (IllegalArgumentException e) {
            err.println("rddp: " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        RnicListener listener;
        try {
            // rpcrdma accepts by hand: its MPA Reply answers the Request's RFC 8797 private data
            listener = rnic.listen(bind, responder != null, settings, admission);
        } catch (BindException e) {
            err.println("rddp: cannot listen on " + listen + ": " + e.getMessage() + " (port in use?)");
            return Main.EXIT_BAD_INPUT;
        } catch (IOException e) {
            err.println("rddp: cannot listen on " + listen + ": " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        out.println("rddp peer: listening on " + hostPort(listener.address()) + " (" + (app.equals("none") ? "control"
                : app) + ")" + (rnic.config().bugs().isEmpty() ? "" : " with bugs " + bugs));
        ControlServer cs = null;
        if (control != null) {
            try {
                cs = new ControlServer(at, options, () -> new RnicControl(rnic, version()));
            } catch (BindException e) {
                err.println("rddp: cannot serve control on " + control + ": " + e.getMessage() + " (port in use?)");
                return Main.EXIT_BAD_INPUT;
            } catch (IOException | IllegalArgumentException e) {
                err.println("rddp: --control " + control + ": " + e.getMessage());
                return Main.EXIT_BAD_INPUT;
            }
            out.println("rddp peer: DUT control protocol on " + hostPort(cs.address()) + (tokenFile != null
                    ? " (token " + tokenFile + ")" : " (no token: any local user can drive it; see docs/security.md)")
                    + "; memory cap " + mib(rnic.config().limits().maxMemory()) + " MiB, "
                    + mib(rnic.config().limits().maxMrSize()) + " MiB a region (from the heap: RDDP_JAVA_OPTS=-Xmx...)");
        }
        Thread deadline = null;
        if (duration > 0) {
            Thread main = Thread.currentThread();
            deadline = new Thread(() -> {
                try {
                    Thread.sleep(duration * 1000L);
                    main.interrupt();
                } catch (InterruptedException e) {
                    // cancelled
                }
            });
            deadline.setDaemon(true);
            deadline.start();
        }
        try {
            switch (app) {
                case "rping" -> Rping.serve(rnic, listener, connections, verbose, out);
                case "perftest" -> Perftest.serve(rnic, listener, size != null ? size : 65536, connections, out);
                case "rpcrdma" -> responder.serve(listener, connections, out);
                default -> Thread.sleep(Long.MAX_VALUE);
            }
        } catch (InterruptedException e) {
            out.println("rddp peer: " + duration + " s passed, stopping");
        } finally {
            if (deadline != null) deadline.interrupt();
            if (cs != null) cs.close();
        }
        return Main.EXIT_OK;
    }

    /** The control server's options; a bind beyond loopback without a token is refused. */
    private ControlServer.Options controlOptions(InetSocketAddress at) throws IOException {
        if (helloTimeout < 1 || controlIdleTimeout < 1 || takeover < 0) {
            throw new IllegalArgumentException("--control-hello-timeout and --control-idle-timeout must be at least 1,"
                    + " --control-takeover at least 0");
        }
        ControlServer.Options o = ControlServer.Options.defaults()
                .withHelloTimeout(Duration.ofSeconds(helloTimeout))
                .withIdleTimeout(Duration.ofSeconds(controlIdleTimeout))
                .withTakeoverAfter(Duration.ofSeconds(takeover));
        if (tokenFile != null) {
            try {
                return o.withSecret(io.rddp.dut.ControlToken.readOrCreate(tokenFile));
            } catch (IOException e) {
                throw new IOException("--token-file: " + e.getMessage(), e);
            }
        }
        if (!at.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException("--control " + control + " is not a loopback address: give --token-file"
                    + " FILE (the tester then needs --control-token-file FILE), or bind 127.0.0.1 and reach it"
                    + " through an SSH tunnel (docs/security.md)");
        }
        return o;
    }

    private RnicConfig config() {
        Set<Bug> knobs = EnumSet.noneOf(Bug.class);
        for (String b : bugs) {
            Bug k = Bug.byKnob(b);
            if (k == null) throw new IllegalArgumentException("unknown bug knob '" + b + "'; see 'rddp peer --list-bugs'");
            knobs.add(k);
        }
        Set<RnicConfig.Rtr> types = EnumSet.allOf(RnicConfig.Rtr.class);
        if (rtr != null) {
            types = EnumSet.noneOf(RnicConfig.Rtr.class);
            for (String t : rtr) types.add(RnicConfig.Rtr.byWireName(t.trim()));
        }
        if (mpaRev != null && mpaRev != 1 && mpaRev != 2) throw new IllegalArgumentException("--mpa-rev must be 1 or 2");
        RnicConfig c = RnicConfig.defaults()
                .withRevisions(mpaRev == null ? Set.of(1, 2) : Set.of(mpaRev))
                .withCrc(crc).withMarkers(markers).withAcceptMarkers(!refuseMarkers)
                .withIrdOrd(ird, ord).withPeerToPeer(p2p, types).withMss(mss).withZeroBasedTo(zeroBasedTo)
                .withBugs(knobs);
        if (mpaTimeout != null) {
            if (!(mpaTimeout > 0) || mpaTimeout > 3600) {
                throw new IllegalArgumentException("--mpa-timeout must be more than 0 and at most 3600 seconds");
            }
            c = c.withMpaTimeout(Duration.ofMillis(Math.max(1, Math.round(mpaTimeout * 1000))));
        }
        return c;
    }

    /** The listener's admission: the defaults for the RNIC's queue pairs, the options over them. */
    private Admission admission(RnicConfig config) {
        Admission a = Admission.defaults(config);
        if (maxStartup != null) {
            int[] n = caps("--max-startup", maxStartup, a.maxStartupPerSource());
            a = a.withStartup(n[0], n[1]);
        }
        if (maxEstablished != null) {
            int[] n = caps("--max-established", maxEstablished, a.maxEstablishedPerSource());
            a = a.withEstablished(n[0], n[1]);
        }
        Duration idle = app.equals("none") ? Duration.ZERO : Admission.SERVER_IDLE_TIMEOUT;
        if (idleTimeout != null) {
            if (!(idleTimeout >= 0) || idleTimeout > 7 * 24 * 3600) {
                throw new IllegalArgumentException("--idle-timeout must be 0 (never) or a number of seconds");
            }
            idle = Duration.ofMillis(Math.round(idleTimeout * 1000));
        }
        return a.withIdleTimeout(idle);
    }

    /** "N" or "N/PER_SOURCE"; PER_SOURCE defaults to {@code perSource}, at most N. */
    private static int[] caps(String option, String s, int perSource) {
        String[] parts = s.split("/", -1);
        try {
            int n = Integer.parseInt(parts[0].trim());
            int p = parts.length > 1 ? Integer.parseInt(parts[1].trim()) : Math.min(perSource, n);
            if (parts.length > 2 || n < 1 || p < 1 || p > n) throw new NumberFormatException();
            return new int[]{n, p};
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be N or N/PER_SOURCE with 1 <= PER_SOURCE <= N, got '"
                    + s + "'");
        }
    }

    private static void shutdown(Rnic rnic, Recorder rec) {
        rnic.close();
        if (rec != null) {
            try {
                rec.close();
            } catch (IOException e) {
                System.err.println("rddp: closing " + rec.path() + ": " + e.getMessage());
            }
        }
    }

    /** "[HOST:]PORT", "HOST:PORT" or "[v6]:PORT". */
    static InetSocketAddress address(String s, String defaultHost) throws UnknownHostException {
        String host = defaultHost, port = s;
        int colon = s.lastIndexOf(':');
        if (colon >= 0) {
            host = s.substring(0, colon);
            port = s.substring(colon + 1);
            if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        }
        if (host == null) throw new IllegalArgumentException("a host is needed (HOST:PORT)");
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + port + "' is not a port number");
        }
        if (p < 0 || p > 65535) throw new IllegalArgumentException("port " + p + " is not 0..65535");
        return new InetSocketAddress(InetAddress.getByName(host), p);
    }

    private static String mib(long octets) {
        return String.format(java.util.Locale.ROOT, "%.1f", octets / 1048576.0);
    }

    private static String hostPort(InetSocketAddress a) {
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    private static String version() {
        return Main.Version.text();
    }
}
