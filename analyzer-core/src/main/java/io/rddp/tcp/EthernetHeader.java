package io.rddp.tcp;

/**
 * Ethernet II header (IEEE 802.3 §3.2): destination and source MAC addresses and the EtherType (the first tag's
 * TPID when the frame is VLAN-tagged).
 *
 * @param destination 6 octets (the record's own array: do not modify)
 * @param source      6 octets (the record's own array: do not modify)
 * @param etherType   the Length/Type field
 */
public record EthernetHeader(byte[] destination, byte[] source, int etherType) {
    public static final int LENGTH = 14;

    public EthernetHeader {
        if (destination.length != 6 || source.length != 6) {
            throw new IllegalArgumentException("MAC addresses are 6 octets");
        }
    }
}
