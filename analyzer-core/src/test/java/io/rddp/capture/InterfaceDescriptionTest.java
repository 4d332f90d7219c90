package io.rddp.capture;

import io.rddp.MalformedException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;

class InterfaceDescriptionTest {
    private static final BigInteger NS = BigInteger.valueOf(1_000_000_000L);

    /** ticks / resolution in ns, truncated, computed without overflow. */
    private static long exact(long ticks, int tsresol, long offset) {
        BigInteger t = new BigInteger(Long.toUnsignedString(ticks));
        BigInteger unitsPerSecond = (tsresol & 0x80) == 0 ? BigInteger.TEN.pow(tsresol)
                : BigInteger.TWO.pow(tsresol & 0x7F);
        return t.multiply(NS).divide(unitsPerSecond).add(BigInteger.valueOf(offset).multiply(NS)).longValue();
    }

    @Property(tries = 2000)
    void decimalResolutionsConvertExactly(@ForAll @IntRange(min = 0, max = 18) int exponent,
                                          @ForAll @LongRange(min = 0, max = Long.MAX_VALUE / 1_000_000_000L) long ticks,
                                          @ForAll @LongRange(min = -1_000_000, max = 1_000_000) long offset) {
        assertThat(new InterfaceDescription(1, 0, exponent, offset).toNanos(ticks))
                .isEqualTo(exact(ticks, exponent, offset));
    }

    @Property(tries = 2000)
    void binaryResolutionsConvertExactlyEvenForFullWidthTicks(@ForAll @IntRange(min = 0, max = 63) int exponent,
                                                              @ForAll long ticks) {
        // Full 64-bit ticks make sense only for fine resolutions; keep the result inside a long.
        long t = exponent >= 34 ? ticks : ticks & ((1L << 30) - 1);
        assertThat(new InterfaceDescription(1, 0, 0x80 | exponent, 0).toNanos(t))
                .isEqualTo(exact(t, 0x80 | exponent, 0));
    }

    @Test
    void writtenBlockParsesBackWithItsOptions() throws MalformedException {
        for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            InterfaceDescription idb = new InterfaceDescription(LinkType.LINUX_SLL2, 1234, 0x80 | 30, -42);
            ByteBuffer b = ByteBuffer.allocate(64).order(order);
            idb.writeTo(b);
            assertThat(b.getInt(4)).isEqualTo(b.position());
            assertThat(InterfaceDescription.parse(b.flip())).isEqualTo(idb);
        }
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        new InterfaceDescription(LinkType.RAW, 0, InterfaceDescription.DEFAULT_TSRESOL, 0).writeTo(b);
        assertThat(b.position()).as("no options but the end marker").isEqualTo(24);
    }

    @Test
    void optionsOfTheWrongLengthAreIgnored() throws MalformedException {
        ByteBuffer b = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(1).putInt(36).putShort((short) 1).putShort((short) 0).putInt(0)
                .putShort((short) 9).putShort((short) 2).put((byte) 9).put((byte) 9).putShort((short) 0)
                .putShort((short) 14).putShort((short) 4).putInt(77)
                .putInt(0).putInt(36);
        InterfaceDescription idb = InterfaceDescription.parse(b.flip());
        assertThat(idb.tsresol()).isEqualTo(6);
        assertThat(idb.tsOffsetSeconds()).isZero();
    }

    @Test
    void sectionHeaderRoundTripsInBothByteOrders() throws MalformedException {
        for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            SectionHeader shb = new SectionHeader(order, 1, 0, 4096, "rddp ünïcode");
            ByteBuffer b = ByteBuffer.allocate(128).order(order == ByteOrder.BIG_ENDIAN
                    ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);   // the buffer's own order must not matter
            shb.writeTo(b);
            assertThat(SectionHeader.parse(b.flip())).isEqualTo(shb);
        }
    }

    @Test
    void pcapFileHeaderRoundTripsAndMasksTheLinkType() throws MalformedException {
        for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            for (boolean nanos : new boolean[]{true, false}) {
                PcapFileHeader h = new PcapFileHeader(order, nanos, 2, 4, 65535, 0x2400_0000L | 276);
                ByteBuffer b = ByteBuffer.allocate(24);
                h.writeTo(b);
                PcapFileHeader back = PcapFileHeader.parse(b.flip());
                assertThat(back).isEqualTo(h);
                assertThat(back.linkType()).isEqualTo(276);
            }
        }
    }
}
