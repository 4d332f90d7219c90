package io.rddp.tcp;

/**
 * One VLAN tag after the Ethernet header (IEEE 802.1Q §9.5, §9.6): its Tag Control Information and the EtherType
 * that follows it. The TPID that announced it is the EtherType before it.
 *
 * @param priority  Priority Code Point, the TCI's top 3 bits
 * @param dei       Drop Eligible Indicator, the next bit
 * @param id        VLAN Identifier, the low 12 bits
 * @param etherType the EtherType after the tag
 */
public record VlanTag(int priority, boolean dei, int id, int etherType) {
    public static final int LENGTH = 4;

    /** The tag from its 16-bit TCI and the EtherType after it. */
    public static VlanTag of(int tci, int etherType) {
        return new VlanTag(tci >>> 13, (tci & 0x1000) != 0, tci & 0x0fff, etherType);
    }
}
