package io.rddp.rdmap;

import io.rddp.ddp.DdpHeader;

/**
 * The RDMAP Control Field, RFC 5040 §4.1 Figure 3: the first octet of the DDP RsvdULP, |RV (2)|Rsv (2)|Opcode (4)|.
 * The opcode is kept raw so that reserved values (12-15) survive decoding.
 *
 * @param version  RV: 01b for RFC 5040, 00b for the RDMA Consortium's RDMAP (RFC 5040 §4.1)
 * @param reserved Rsv, 2 bits (RFC 5040 §4.1: zero on transmit, ignored on receive)
 * @param opcode   the 4-bit opcode as on the wire
 */
public record RdmapControl(int version, int reserved, int opcode) {

    public RdmapControl {
        if (version < 0 || version > 3) throw new IllegalArgumentException("RV is 2 bits: " + version);
        if (reserved < 0 || reserved > 3) throw new IllegalArgumentException("RDMAP Rsv is 2 bits: " + reserved);
        if (opcode < 0 || opcode > 15) throw new IllegalArgumentException("RDMA opcode is 4 bits: " + opcode);
    }

    /** RV 1, Rsv 0, as RFC 5040 §4.1 wants on transmit. */
    public static RdmapControl of(Opcode opcode) {
        return new RdmapControl(1, 0, opcode.code());
    }

    public static RdmapControl fromByte(int octet) {
        return new RdmapControl((octet >>> 6) & 3, (octet >>> 4) & 3, octet & 0xF);
    }

    /** The control field of a DDP segment, from RsvdULP[0:7] in either buffer model. */
    public static RdmapControl of(DdpHeader header) {
        return fromByte(header.rsvdUlpFirstOctet());
    }

    public int toByte() {
        return (version << 6) | (reserved << 4) | opcode;
    }

    /** The opcode, or null for a reserved value. */
    public Opcode kind() {
        return Opcode.of(opcode);
    }

    @Override
    public String toString() {
        Opcode k = kind();
        return (k != null ? k.rfcName() : "reserved opcode " + opcode) + " RV " + version
                + (reserved != 0 ? " Rsv " + reserved : "");
    }
}
