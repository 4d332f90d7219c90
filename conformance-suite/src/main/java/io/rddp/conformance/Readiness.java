package io.rddp.conformance;

/**
 * Tells when a DUT that restarts between connections listens again (rping -s, restarted by a loop after each one):
 * the tester waits on it instead of sleeping a fixed time.
 */
@FunctionalInterface
public interface Readiness {

    /** Returns within about {@code limitMs}: true once the DUT is ready, false when it could not tell in time. */
    boolean await(long limitMs) throws InterruptedException;

    /** Knows nothing: the tester's connection attempts are the only probe. */
    Readiness NONE = limitMs -> false;
}
