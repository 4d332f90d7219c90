package io.rddp.conformance;

/**
 * How much of what the DUT sends one scenario records and keeps: a DUT that floods must not fill the tester's disk or
 * memory. Past the cap the tester goes on reading (the DUT is never blocked, its close and Terminate are still seen)
 * and counting, but keeps and records nothing more; see {@link ScriptedConnection#truncated()}.
 *
 * @param octets DUT octets per scenario, over all its connections, recorded in its pcapng and kept for judging
 */
public record RecordingCap(long octets) {

    /** The default: 16 MiB, far beyond what any scenario needs the DUT to send. */
    public static final long DEFAULT_OCTETS = 16L << 20;

    public RecordingCap {
        if (octets < 1) throw new IllegalArgumentException("record cap " + octets + " octets");
    }

    public static RecordingCap defaults() {
        return new RecordingCap(DEFAULT_OCTETS);
    }
}
