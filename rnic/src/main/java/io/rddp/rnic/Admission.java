package io.rddp.rnic;

import java.time.Duration;

/**
 * How a listener admits connections, so that peers that connect and say nothing, trickle their MPA Request, or hold
 * established connections without traffic never keep a real client out. Sources are remote IP addresses.
 * <ul>
 * <li>Start-up (TCP up, the MPA exchange not over; it ends within the RNIC's {@link RnicConfig#mpaTimeout()}): at most
 * {@code maxStartup} connections, {@code maxStartupPerSource} from one source. A connection that arrives beyond
 * either cap is let in and an older one in start-up is reset to make room: its own source's when that source holds
 * its share, else one of the source that holds the most; among those, one that sent no octet yet before one that
 * did, the oldest first. A fresh client that sends its Request at once is never the one dropped.</li>
 * <li>Established: at most {@code maxEstablished} connections, {@code maxEstablishedPerSource} from one source,
 * checked when a connection completes its MPA exchange (a peer that never gets that far cannot push anyone out). At a
 * cap the established connection idle the longest (its source's, else one of the source that holds the most) is reset
 * to make room; only connections with an idle timeout running are taken, and when there is none the new one is
 * refused (reset right after its Reply).</li>
 * <li>Idle: an established connection with no octet either way for {@code idleTimeout} is reset (zero: never).</li>
 * </ul>
 * Connections on their way out (after a Terminate or a close, waiting for the peer's FIN) are reset first when the
 * listener holds as many connections as both caps together. Every refusal or reset is an
 * {@link AsyncEvent.Type#RESOURCE_LIMIT} event.
 *
 * @param maxStartup              connections in the MPA start-up at once
 * @param maxStartupPerSource     of them from one remote address
 * @param maxEstablished          established connections at once
 * @param maxEstablishedPerSource of them from one remote address
 * @param idleTimeout             established connections with no traffic either way for this long are reset; zero:
 *                                never
 */
public record Admission(int maxStartup, int maxStartupPerSource, int maxEstablished, int maxEstablishedPerSource,
                        Duration idleTimeout) {

    /** The idle timeout of {@code rddp peer}'s application servers (rping, perftest). */
    public static final Duration SERVER_IDLE_TIMEOUT = Duration.ofSeconds(30);

    public Admission {
        if (maxStartup < 1 || maxStartupPerSource < 1 || maxEstablished < 1 || maxEstablishedPerSource < 1) {
            throw new IllegalArgumentException("admission caps must be at least 1, got start-up " + maxStartup + "/"
                    + maxStartupPerSource + ", established " + maxEstablished + "/" + maxEstablishedPerSource);
        }
        idleTimeout = idleTimeout == null ? Duration.ZERO : idleTimeout;
        if (idleTimeout.isNegative()) throw new IllegalArgumentException("the idle timeout must not be negative");
    }

    /**
     * Caps that share the RNIC's queue pairs ({@link RnicConfig.Limits#maxQp()}): half for connections in start-up, a
     * quarter of those per source; the other half for established ones, half of those per source. No idle timeout.
     */
    public static Admission defaults(RnicConfig config) {
        int qps = Math.max(2, config.limits().maxQp());
        int startup = qps / 2;
        int established = qps - startup;
        return new Admission(startup, Math.max(1, startup / 4), established, Math.max(1, established / 2),
                Duration.ZERO);
    }

    public Admission withStartup(int max, int perSource) {
        return new Admission(max, perSource, maxEstablished, maxEstablishedPerSource, idleTimeout);
    }

    public Admission withEstablished(int max, int perSource) {
        return new Admission(maxStartup, maxStartupPerSource, max, perSource, idleTimeout);
    }

    public Admission withIdleTimeout(Duration d) {
        return new Admission(maxStartup, maxStartupPerSource, maxEstablished, maxEstablishedPerSource, d);
    }
}
