package io.rddp.conformance;

import io.rddp.rnic.link.Recorder;

import java.io.Closeable;
import java.util.List;
import java.util.Set;

/**
 * A device under test as a profile reaches it: through the DUT control protocol (agent), as a stock rping server
 * (rping), or as a stock rping client (rping-client). The profile prepares the DUT for a scenario, opens the tester's
 * connection, and runs the checks that follow a scenario (liveness, placement).
 */
public interface Dut extends Closeable {

    /** "agent", "rping" or "rping-client". */
    String profile();

    /** What the DUT can do: capability names as {@link ScenarioInfo#needs()} uses them. */
    Set<String> capabilities();

    /**
     * The payload of a Send of the tester's whose contents the scenario leaves open (a {@code send} step without
     * {@code data}): a stock application may read some Sends as messages of its own, and the profile makes those valid
     * ones (rping -s takes every 16-octet Send as a buffer advertisement). By default the pattern goes as it is.
     */
    default byte[] sendPayload(Session s, byte[] pattern) {
        return pattern;
    }

    /** One line about the DUT for the report (server, device, version). */
    String describe();

    /** Prepares the DUT per {@code setup} and opens a connection to it, MPA exchange done unless setup asks not. */
    Session open(Setup setup, Recorder recorder, Timeouts t) throws Exception;

    /**
     * What the last {@link #open} had to do beyond the plain set-up (e.g. a second connection because the first
     * stalled before the scenario's fault), for the scenario's notes; taking them clears them. None by default.
     */
    default List<String> takeOpenNotes() {
        return List.of();
    }

    /**
     * After a negative scenario: a new connection and a Send / Write / Read round trip must work (a DUT that crashed
     * or hangs fails here). Null when it does, else what went wrong.
     */
    String liveness(Recorder recorder, Timeouts t) throws Exception;

    /**
     * The canary check: nothing placed in the session's DUT buffer outside the {@code allowed} [offset, end) ranges.
     * Null when clean (or when the profile cannot read DUT memory), else what was found.
     */
    String placement(Session s, List<long[]> allowed) throws Exception;

    /**
     * The DUT was restarted (its daemon, or its host rebooted) after it stopped answering: reconnect whatever the
     * profile keeps open to it, e.g. the control channel.
     */
    default void revived() throws Exception {
    }

    /**
     * How many scenarios this DUT can take at once ({@code rddp conform --jobs}), and why no more. By default one: a
     * profile whose DUT holds one connection to the tester at a time cannot share it.
     */
    default JobLimit jobLimit() {
        return new JobLimit(1, "the " + profile() + " profile drives one DUT program that serves one connection at a"
                + " time");
    }

    /**
     * Another way into the same DUT for scenarios that run alongside this one's, numbered {@code k} from 1 below
     * {@link #jobLimit()}: its own resources on the DUT, its own ports.
     */
    default Dut lane(int k) throws Exception {
        throw new UnsupportedOperationException(jobLimit().why());
    }

    /** Undoes what a scenario set up on the DUT. */
    void reset() throws Exception;

    @Override
    void close();
}
