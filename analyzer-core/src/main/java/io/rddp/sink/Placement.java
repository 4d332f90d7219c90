package io.rddp.sink;

/**
 * Octets of a tagged buffer placed by one direction since its sender last signalled completion (a Send-type or
 * Immediate Data message, or the delivery of the Read Response that wrote them: RFC 5040 §5.5 rules 5 and 6).
 *
 * @param stag   the STag (32 bits unsigned)
 * @param to     first Tagged Offset of the range (unsigned 64-bit)
 * @param length octets from {@code to} on (unsigned 64-bit)
 */
public record Placement(long stag, long to, long length) {
}
