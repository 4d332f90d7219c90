package io.rddp.conformance;

import io.rddp.rnic.link.Recorder;

/**
 * A DUT that can be the MPA Initiator (RFC 5044 §7.1.2): the tester listens, the DUT connects. The tester's end of the
 * connection is returned as soon as the DUT's TCP connection arrives, before anything MPA happened: the scenario reads
 * the DUT's MPA Request and answers it.
 */
public interface ActiveDut {

    /**
     * Prepares the DUT per {@code setup}, listens, makes the DUT connect and accepts its connection. The DUT's side of
     * the connection is finished in the background (its connect returns once the tester's MPA Reply was judged).
     */
    Session openActive(ActiveSetup setup, Recorder recorder, Timeouts t) throws Exception;

    /**
     * The DUT's queue pair of an active session, once its connect has returned (waiting at most {@code timeoutMs}), or
     * -1 when the DUT's connect failed or is still waiting.
     */
    int activeQp(Session s, long timeoutMs) throws Exception;

    /** What the DUT's connect of an active session answered, in words ("established", "failed: ...", "pending"). */
    String connectOutcome(Session s);
}
