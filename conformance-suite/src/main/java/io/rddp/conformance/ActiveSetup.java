package io.rddp.conformance;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * How a DUT-active scenario (the DUT is the MPA Initiator, RFC 5044 §7.1.2) wants the DUT prepared: the buffer and
 * receives of {@code base} (its MPA Request is ignored: the DUT sends its own), and what the DUT's connect asks for.
 *
 * @param base      buffer, receives and IRD/ORD as for a passive scenario
 * @param connect   extra fields of the control protocol's {@code connect} request ({@code ird}, {@code ord},
 *                  {@code private_data}, {@code mpa}), or null
 * @param timeoutMs how long the DUT's connect may wait for the tester's MPA Reply (0: the connect timeout); a
 *                  scenario that never answers keeps it short, since the control channel waits for the connect
 */
public record ActiveSetup(Setup base, ObjectNode connect, int timeoutMs) {
}
