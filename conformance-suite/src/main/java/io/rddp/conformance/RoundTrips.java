package io.rddp.conformance;

import io.rddp.rnic.link.Recorder;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The DUT's round trips measured at the start of a run, from which the tester's waits are derived
 * ({@link #waits(Timeouts)}): a DUT in an emulated VM answers in tens of milliseconds where a loopback peer answers in
 * one, and each gets waits in proportion, never below the floor.
 *
 * @param connectMs the connection set-ups measured, the first a warm-up: TCP connect, MPA Request and Reply, and the
 *                  control requests that prepare and take the DUT's queue pair (agent profile); empty when not measured
 * @param controlMs control-channel round trips (a {@code hello} answered again), the first a warm-up; empty without a
 *                  control channel
 */
public record RoundTrips(List<Long> connectMs, List<Long> controlMs) {

    /**
     * Connections and control requests measured at the start. The first of each warms up (the tester's and a JVM
     * DUT's code is compiled while it runs: 10 to 20 times the others) and is shown but not used.
     */
    static final int SAMPLES = 5;
    /**
     * Waits in round trips of the typical (median) set-up. A reaction to a fault is one frame to the DUT and one back,
     * which the set-up (several round trips and the DUT's work on each) bounds from above; so "no reaction" watched for
     * {@value #QUIET_RTTS} set-ups is ten times what the DUT needed to answer at all, and leaves room for its jitter.
     */
    static final int QUIET_RTTS = 10;
    /** A reaction the DUT owes, the tester's connect and the control requests that wait: thirty set-ups. */
    static final int REACTION_RTTS = 30;

    public RoundTrips {
        connectMs = List.copyOf(connectMs);
        controlMs = List.copyOf(controlMs);
    }

    public static RoundTrips none() {
        return new RoundTrips(List.of(), List.of());
    }

    /**
     * Measures the agent profile's DUT: {@value #SAMPLES} control round trips, then {@value #SAMPLES} connections set
     * up and torn down as a scenario's first (its reset included); the rpcrdma profile's {@value #SAMPLES}
     * connections with a NULL call each; the rping profiles are not measured (a probe connection would take rping's
     * one connection).
     */
    public static RoundTrips measure(Dut dut, Timeouts t) throws Exception {
        if (dut instanceof io.rddp.conformance.rpcrdma.RpcRdmaDut r) {
            return new RoundTrips(r.measure(SAMPLES, t), List.of());
        }
        if (!(dut instanceof AgentDut a)) return none();
        List<Long> control = new ArrayList<>(), connect = new ArrayList<>();
        for (int i = 0; i < SAMPLES; i++) {
            long start = System.nanoTime();
            a.control().call(ControlClient.request("hello").put("version", io.rddp.dut.ControlServer.VERSION));
            control.add(millisSince(start));
        }
        for (int i = 0; i < SAMPLES; i++) {
            long start = System.nanoTime();
            try (Session s = a.open(Setup.defaults(), Recorder.counting(1 << 20), t)) {
                if (s.qp() < 0) throw new java.io.IOException("the DUT did not set up the probe connection");
            } finally {
                a.reset();
            }
            connect.add(millisSince(start));
        }
        return new RoundTrips(connect, control);
    }

    /** The median connection set-up after the warm-up (the upper one of an even count), 0 when none was measured. */
    public long connectMedianMs() {
        return median(connectMs);
    }

    /** The median control round trip after the warm-up, 0 when none was measured. */
    public long controlMedianMs() {
        return median(controlMs);
    }

    private static long median(List<Long> ms) {
        if (ms.size() < 2) return ms.isEmpty() ? 0 : ms.get(0);
        List<Long> s = new ArrayList<>(ms.subList(1, ms.size()));
        s.sort(null);
        return s.get(s.size() / 2);
    }

    /** The waits: each the larger of the floor's and its multiple of the median set-up (or control round trip). */
    public Timeouts waits(Timeouts floor) {
        long rtt = Math.max(connectMedianMs(), controlMedianMs());
        return new Timeouts(at(floor.connect(), REACTION_RTTS * rtt), at(floor.reaction(), REACTION_RTTS * rtt),
                at(floor.quiet(), QUIET_RTTS * rtt), at(floor.control(), REACTION_RTTS * rtt));
    }

    private static int at(int floor, long derived) {
        return (int) Math.min(Integer.MAX_VALUE / 2, Math.max(floor, derived));
    }

    /** One line for the console: what was measured. */
    public String text() {
        if (connectMs.isEmpty() && controlMs.isEmpty()) return "round trips not measured (no control channel)";
        return String.format(Locale.ROOT, "round trips: set-up %s ms (median %d), control %s ms (median %d)",
                list(connectMs), connectMedianMs(), list(controlMs), controlMedianMs());
    }

    private static String list(List<Long> ms) {
        return ms.isEmpty() ? "-" : String.join("/", ms.stream().map(String::valueOf).toList());
    }

    private static long millisSince(long start) {
        return Math.max(1, (System.nanoTime() - start + 999_999) / 1_000_000L);
    }
}
