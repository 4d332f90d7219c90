package io.rddp.conformance;

import io.rddp.rnic.link.Recorder;
import io.rddp.mpa.MpaStartFrame;

import java.util.ArrayList;
import java.util.List;

/** What a running scenario can use: the DUT, the timeouts, and connections it opens (the first is the one judged). */
public final class ScenarioContext {
    private final Dut dut;
    private final Timeouts timeouts;
    private final Recorder recorder;
    private final ScenarioInfo info;
    private final List<Session> sessions = new ArrayList<>();
    private final List<long[]> allowed = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<String> compared = new ArrayList<>();
    private RpcReaction rpc;

    ScenarioContext(Dut dut, Timeouts timeouts, Recorder recorder, ScenarioInfo info) {
        this.dut = dut;
        this.timeouts = timeouts;
        this.recorder = recorder;
        this.info = info;
    }

    public Dut dut() {
        return dut;
    }

    public Timeouts timeouts() {
        return timeouts;
    }

    public Recorder recorder() {
        return recorder;
    }

    /**
     * Opens a connection with the DUT prepared per {@code setup}. A DUT that rejects a Request asking for Markers it
     * does not support makes the scenario not supported, when it needs Markers.
     */
    public Session open(Setup setup) throws Exception {
        Session s;
        try {
            s = dut.open(setup, recorder, timeouts);
        } finally {
            dut.takeOpenNotes().forEach(this::note);
        }
        sessions.add(s);
        MpaStartFrame reply = s.conn().peerStartFrame();
        if (setup.request() != null && setup.request().markers() && info.needs().contains("markers") && reply != null
                && reply.reject()) {
            throw new Scenario.Skip("the DUT rejects a peer that asks for Markers (RFC 5044 §7.1.1 allows it to)",
                    true);
        }
        return s;
    }

    /**
     * As {@link #open(Setup)} with extra fields for the agent's {@code listen} and (manual) {@code accept} requests;
     * without extras any profile works, with them only the agent profile.
     */
    public Session open(Setup setup, com.fasterxml.jackson.databind.node.ObjectNode listenExtra,
                        com.fasterxml.jackson.databind.node.ObjectNode acceptExtra) throws Exception {
        if (listenExtra == null && acceptExtra == null) return open(setup);
        Session s = agent().open(setup, recorder, timeouts, listenExtra, acceptExtra);
        sessions.add(s);
        return s;
    }

    /** Makes the DUT the MPA Initiator: the tester listens, the DUT connects (agent and rping-client profiles). */
    public Session openActive(ActiveSetup setup) throws Exception {
        if (!(dut instanceof ActiveDut a)) {
            throw new Scenario.Skip("needs a DUT that connects to the tester (agent or rping-client profile)", false);
        }
        Session s = a.openActive(setup, recorder, timeouts);
        sessions.add(s);
        return s;
    }

    /** The DUT's queue pair of {@code s}: for a DUT-active session, once the DUT's connect returned (-1: failed). */
    public int qp(Session s) throws Exception {
        if (s.qp() >= 0) return s.qp();
        if (dut instanceof AgentDut a) return a.qp(s, timeouts);
        if (dut instanceof ActiveDut a) return a.activeQp(s, timeouts.control());
        return -1;
    }

    public Session open() throws Exception {
        return open(Setup.defaults());
    }

    /** The connection the DUT's reaction is judged on (the first opened), or null. */
    public Session primary() {
        return sessions.isEmpty() ? null : sessions.get(0);
    }

    /**
     * Makes {@code s}, one of the sessions this scenario opened, the one whose reaction is judged (by default the
     * first opened), e.g. when a first connection only prepares the fault of a second.
     */
    public void judge(Session s) {
        if (!sessions.remove(s)) throw new IllegalArgumentException("not a session of this scenario");
        sessions.add(0, s);
    }

    List<Session> sessions() {
        return sessions;
    }

    /** Octets [offset, offset + length) of the DUT buffer the scenario may legitimately change. */
    public void allowPlacement(long offset, long length) {
        allowed.add(new long[]{offset, offset + length});
    }

    List<long[]> allowed() {
        return allowed;
    }

    /** A remark for the report. */
    public void note(String s) {
        notes.add(s);
    }

    List<String> notes() {
        return notes;
    }

    /**
     * What a check compared and found as it should be, in a few words for the report ("1 MiB read back, equal"): a
     * pass then says what it rests on.
     */
    public void compared(String s) {
        if (compared.size() < 64) compared.add(s);
    }

    List<String> compared() {
        return compared;
    }

    /**
     * What the DUT answered, at the RPC-over-RDMA level, to the message the scenario is about (rpcrdma profile): the
     * runner matches it against the scenario's {@code rpc:} reactions. The first one given counts.
     */
    public void rpcReaction(RpcReaction r) {
        if (rpc == null) rpc = r;
    }

    RpcReaction rpcReaction() {
        return rpc;
    }

    /** The scenario being run. */
    ScenarioInfo info() {
        return info;
    }

    /** The agent profile's DUT, or a skip where the profile has no control channel. */
    public AgentDut agent() throws Scenario.Skip {
        if (dut instanceof AgentDut a) return a;
        throw new Scenario.Skip("needs the DUT control channel (agent profile)", false);
    }
}
