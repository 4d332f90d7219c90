package io.rddp.conformance;

/**
 * A buffer a scenario names in its value expressions ({@code other.stag}, {@code tester.to}): a DUT buffer registered
 * through the control channel, or the tester's own.
 *
 * @param mr          the DUT region id, or -1 (the tester's)
 * @param otherDomain registered in another protection domain than the connection's
 * @param fill        what it was filled with
 */
record NamedBuffer(String name, long stag, long to, int length, int mr, boolean otherDomain, byte[] fill) {
}
