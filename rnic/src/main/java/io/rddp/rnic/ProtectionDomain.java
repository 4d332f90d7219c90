package io.rddp.rnic;

/**
 * A protection domain (RFC 5042 §2.2.3): memory registered in it is usable only on queue pairs of the same domain; an
 * STag of another domain is "not associated" with the stream (RFC 5040 §7.2, RFC 5041 §7.2).
 */
public record ProtectionDomain(int id) {
}
