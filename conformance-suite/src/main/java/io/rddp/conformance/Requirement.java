package io.rddp.conformance;

/**
 * One normative statement of an RFC a scenario proves (h2spec's and TLS-Anvil's metadata: RFC, section, level and
 * the words themselves).
 *
 * @param id      stable id in the requirement catalogue, e.g. "rfc5041.4.3.msn-initial"
 * @param rfc     "RFC 5041"
 * @param section "§4.3"
 * @param level   MUST, MUST NOT, SHOULD, SHOULD NOT or MAY
 * @param quote   the statement, short
 */
public record Requirement(String id, String rfc, String section, String level, String quote) {

    /** Whether missing it is a failure (MUST, MUST NOT) rather than non-strict (SHOULD) or informational (MAY). */
    public boolean mandatory() {
        return level.startsWith("MUST");
    }

    public boolean should() {
        return level.startsWith("SHOULD");
    }
}
