package io.rddp.rpcrdma;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CmPrivateDataTest {

    @Test
    void decodesFormatVersionFlagsAndSizesOfRfc8797() {
        // RFC 8797 §5.1: identifier 0xF6AB0E18, version 1, flags (bit 0 Remote Invalidation), then the Send and
        // Receive sizes as (value + 1) * 1024
        byte[] wire = {(byte) 0xF6, (byte) 0xAB, 0x0E, 0x18, 1, 1, 3, (byte) 0xFF};
        CmPrivateData pd = CmPrivateData.parse(wire);
        assertThat(pd).isEqualTo(new CmPrivateData(1, true, 4 * 1024, 256 * 1024));
    }

    @Test
    void sizeValueZeroMeansOneKibibyte() {
        byte[] wire = {(byte) 0xF6, (byte) 0xAB, 0x0E, 0x18, 1, 0, 0, 0};
        CmPrivateData pd = CmPrivateData.parse(wire);
        assertThat(pd.sendSize()).isEqualTo(1024);
        assertThat(pd.receiveSize()).isEqualTo(1024);
        assertThat(pd.remoteInvalidation()).isFalse();
    }

    @Test
    void encodesSizesAsKibibytesMinusOne() {
        assertThat(new CmPrivateData(1, true, 4096, 1024).toBytes())
                .containsExactly(0xF6, 0xAB, 0x0E, 0x18, 1, 1, 3, 0);
        assertThat(new CmPrivateData(1, false, 256 * 1024, 8192).toBytes())
                .containsExactly(0xF6, 0xAB, 0x0E, 0x18, 1, 0, 0xFF, 7);
    }

    @Property(tries = 300)
    void everyEncodableValueRoundTrips(@ForAll @IntRange(min = 0, max = 255) int send,
                                       @ForAll @IntRange(min = 0, max = 255) int receive,
                                       @ForAll boolean invalidation) {
        CmPrivateData pd = new CmPrivateData(1, invalidation, (send + 1) * 1024, (receive + 1) * 1024);
        byte[] bytes = pd.toBytes();
        assertThat(bytes).hasSize(CmPrivateData.LENGTH);
        assertThat(bytes[6] & 0xFF).isEqualTo(send);
        assertThat(bytes[7] & 0xFF).isEqualTo(receive);
        assertThat(CmPrivateData.parse(bytes)).isEqualTo(pd);
    }

    @Test
    void otherPrivateDataIsNotRfc8797() {
        byte[] good = new CmPrivateData(1, true, 4096, 4096).toBytes();
        byte[] magic = good.clone();
        magic[3] = 0x19;
        assertThat(CmPrivateData.parse(magic)).as("wrong format identifier").isNull();
        byte[] version = good.clone();
        version[4] = 2;
        assertThat(CmPrivateData.parse(version)).as("version 2 has another layout (RFC 8797 §5.1)").isNull();
        assertThat(CmPrivateData.parse(java.util.Arrays.copyOf(good, 7))).as("7 octets").isNull();
        assertThat(CmPrivateData.parse(new byte[0])).isNull();
        assertThat(CmPrivateData.parse(null)).isNull();
    }

    @Test
    void longerPrivateDataIsDecodedFromItsFirstEightOctets() {
        byte[] longer = java.util.Arrays.copyOf(new CmPrivateData(1, false, 2048, 3072).toBytes(), 32);
        longer[31] = 0x55;
        assertThat(CmPrivateData.parse(longer)).isEqualTo(new CmPrivateData(1, false, 2048, 3072));
    }
}
