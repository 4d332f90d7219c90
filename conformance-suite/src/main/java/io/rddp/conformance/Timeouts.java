package io.rddp.conformance;

/**
 * How long the tester waits, in milliseconds. Loopback peers answer at once; a DUT in an emulated VM needs more: the
 * waits are derived from the DUT's round trips measured at the start of a run ({@link RoundTrips#waits}), with these
 * defaults as the floor, or scaled together by an explicit factor.
 *
 * @param connect  TCP connect and the DUT's MPA Reply
 * @param reaction how long a DUT may take to react to a fault (Terminate, close)
 * @param quiet    how long "no reaction" is watched before it counts as none
 * @param control  control-channel operations that wait (accept, poll)
 */
public record Timeouts(int connect, int reaction, int quiet, int control) {

    public static Timeouts defaults() {
        return new Timeouts(5000, 3000, 300, 5000);
    }

    /** For the console and the report: "connect 5000 ms, reaction 3000 ms, quiet 300 ms, control 5000 ms". */
    public String text() {
        return "connect " + connect + " ms, reaction " + reaction + " ms, quiet " + quiet + " ms, control " + control
                + " ms";
    }

    public Timeouts scaled(double f) {
        return new Timeouts((int) (connect * f), (int) (reaction * f), (int) (quiet * f), (int) (control * f));
    }
}
