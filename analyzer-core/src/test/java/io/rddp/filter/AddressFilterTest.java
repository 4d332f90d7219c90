package io.rddp.filter;

import io.rddp.filter.Expr.Element;
import io.rddp.filter.Expr.Literal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Address literals, CIDR blocks and sets in display filters: how they parse, match and fail. */
class AddressFilterTest {

    private static Expr parse(String s) throws FilterException {
        return DisplayFilter.compile(s).expression();
    }

    private static IpAddress ip(String s) {
        IpAddress a = IpAddress.parseOrNull(s);
        assertThat(a).as(s).isNotNull();
        return a;
    }

    /** A PDU from src:srcPort to dst:dstPort. */
    private static FieldRecord pdu(String src, int srcPort, String dst, int dstPort) {
        FieldRecord r = new FieldRecord();
        DisplayFilter.addConnection(r, 0, src, srcPort, dst, dstPort);
        return r;
    }

    private static boolean matches(String filter, FieldRecord r) throws FilterException {
        return DisplayFilter.compile(filter).matches(r);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '~', value = {
            "10.0.2.15                ~ 0a00020f",
            "0.0.0.0                  ~ 00000000",
            "255.255.255.255          ~ ffffffff",
            "::                       ~ 00000000000000000000000000000000",
            "::1                      ~ 00000000000000000000000000000001",
            "fe80::1                  ~ fe800000000000000000000000000001",
            "FE80::a:B                ~ fe8000000000000000000000000a000b",
            "2001:db8::               ~ 20010db8000000000000000000000000",
            "2001:db8:0:0:1:0:0:1     ~ 20010db8000000000001000000000001",
            "1:2:3:4:5:6:7::          ~ 00010002000300040005000600070000",
            "::ffff:10.0.2.15         ~ 00000000000000000000ffff0a00020f",
            "64:ff9b::192.0.2.33      ~ 0064ff9b0000000000000000c0000221",
    })
    void addressLiteralsGiveTheirOctets(String text, String hex) {
        assertThat(java.util.HexFormat.of().formatHex(ip(text).octets())).isEqualTo(hex);
    }

    @Test
    void addressesPrintInTheirUsualFormAndParseBackToThemselves() throws Exception {
        assertThat(ip("2001:db8:0:0:1:0:0:1")).hasToString("2001:db8::1:0:0:1");
        assertThat(ip("::ffff:10.0.2.15")).as("RFC 5952 §5: IPv4-mapped in mixed notation").hasToString("::ffff:10.0.2.15");
        assertThat(ip("1:0:0:2:0:0:0:3")).as("RFC 5952 §4.2.3: the longest run of zeros").hasToString("1:0:0:2::3");
        assertThat(ip("1:0:0:2:0:0:3:4")).as("RFC 5952 §4.2.3: the first of equal runs").hasToString("1::2:0:0:3:4");
        assertThat(ip("1:0:2:3:4:5:6:7")).as("RFC 5952 §4.2.2: not one group").hasToString("1:0:2:3:4:5:6:7");
        assertThat(ip("FE80::AB")).hasToString("fe80::ab");
        assertThat(ip("::")).hasToString("::");
        for (String f : List.of("ip.addr == 10.0.2.15", "ipv6.src != fe80::/10", "ip.dst >= 10.0.0.1",
                "tcp.port in {7174 20049 1..10}", "ip.addr in {10.0.0.1..10.0.0.9 192.0.2.0/24}",
                "ipv6.addr in {::1 fe80::1..fe80::ff}", "rdmap.opcodeName in {\"Send\" \"RDMA Write\"}")) {
            Expr e = parse(f);
            assertThat(parse(e.toString())).as(f).isEqualTo(e);
        }
        assertThat(parse("tcp.port in {7174 20049,1..10}").toString()).as("spaces (Wireshark before 4.0) or commas").isEqualTo("tcp.port in {7174, 20049, 1..10}");
        assertThat(parse("ip.addr == \"10.0.2.15\"")).as("a quoted address is the address")
                .isEqualTo(new Expr.Compare("ip.addr", Expr.Op.EQ, new Literal(ip("10.0.2.15"))));
        assertThat(parse("tcp.port in {1..10}")).isEqualTo(new Expr.In("tcp.port",
                List.of(new Element(new Literal(1L), new Literal(10L)))));
    }

    @Test
    void anAddressFieldMatchesItsAddressItsBlockAndItsSet() throws Exception {
        FieldRecord v4 = pdu("10.0.2.15", 39655, "10.0.2.16", 7174);
        assertThat(matches("ip.addr == 10.0.2.15", v4)).isTrue();
        assertThat(matches("ip.src == 10.0.2.16", v4)).isFalse();
        assertThat(matches("ip.dst == 10.0.2.16", v4)).isTrue();
        assertThat(matches("ip.addr != 10.0.2.15", v4)).as("!= holds when no value equals").isFalse();
        assertThat(matches("ip.addr != 10.0.3.1", v4)).isTrue();
        assertThat(matches("ip.addr == 10.0.2.0/24", v4)).isTrue();
        assertThat(matches("ip.addr == 10.0.2.15/32", v4)).isTrue();
        assertThat(matches("ip.addr == 10.0.3.0/24", v4)).isFalse();
        assertThat(matches("ip.addr == 10.0.2.99/24", v4)).as("host bits of a block are ignored").isTrue();
        assertThat(matches("ip.addr == 0.0.0.0/0", v4)).isTrue();
        assertThat(matches("ip.src != 10.0.0.0/8", v4)).isFalse();
        assertThat(matches("ip.src < 10.0.2.16 && ip.dst > 10.0.2.15", v4)).isTrue();
        assertThat(matches("ip.addr in {192.0.2.1 10.0.2.16}", v4)).isTrue();
        assertThat(matches("ip.src in {10.0.2.1..10.0.2.14, 10.0.2.17..10.0.2.255}", v4)).isFalse();
        assertThat(matches("ip.src in {10.0.2.1..10.0.2.15}", v4)).isTrue();
        assertThat(matches("ip.src in {192.0.2.0/24 10.0.0.0/8}", v4)).isTrue();
        assertThat(matches("tcp.port in {7174 20049}", v4)).isTrue();
        assertThat(matches("tcp.srcport in {1..1024}", v4)).isFalse();
        assertThat(matches("tcp.srcport in {1..1024 39000..40000}", v4)).isTrue();
        assertThat(matches("ipv6.addr == ::1", v4)).as("an IPv4 PDU has no ipv6.* fields").isFalse();
        assertThat(matches("ipv6.addr != ::1", v4)).isFalse();
    }

    @Test
    void ipv6AndIpv4MappedAddressesAreIpv6FieldsNeverEqualToIpv4() throws Exception {
        FieldRecord v6 = pdu("fe80::1", 4791, "::ffff:10.0.2.15", 4791);
        assertThat(matches("ipv6.src == fe80::1", v6)).isTrue();
        assertThat(matches("ipv6.src == fe80:0:0:0:0:0:0:1", v6)).isTrue();
        assertThat(matches("ipv6.addr == fe80::/10", v6)).isTrue();
        assertThat(matches("ipv6.dst == fe80::/10", v6)).isFalse();
        assertThat(matches("ipv6.dst == ::ffff:10.0.2.15", v6)).isTrue();
        assertThat(matches("ipv6.dst == ::ffff:0:0/96", v6)).isTrue();
        assertThat(matches("ip.addr == 10.0.2.15", v6)).as("Wireshark: ip.* is IPv4 only").isFalse();
        assertThat(matches("ipv6.addr in {::1 fe80::1..fe80::2}", v6)).isTrue();
        assertThat(matches("ipv6.addr == ::/0", v6)).isTrue();
    }

    @Test
    void anAddressTextThatIsNoAddressLeavesTheFieldsOut() {
        FieldRecord r = pdu("?", 1, "10.0.2.15", 2);
        assertThat(r.has("ip.src")).isFalse();
        assertThat(r.get("ip.addr")).containsExactly(ip("10.0.2.15"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '~', value = {
            "ip.addr == 10.0.2                 ~ 12 ~ '10.0.2' is not an IPv4 address: 3 parts where 4 are needed (e.g. 10.0.2.15)",
            "ip.addr == 10.0.2.15.1            ~ 12 ~ '10.0.2.15.1' is not an IPv4 address: 5 parts where 4 are needed (e.g. 10.0.2.15)",
            "ip.addr == 10.0.2.256             ~ 19 ~ '256' in '10.0.2.256' is above 255",
            "ip.addr == 10.0..15               ~ 17 ~ an empty part in the IPv4 address '10.0..15'",
            "ip.addr == 10.0.2x.15             ~ 17 ~ '2x' in '10.0.2x.15' is not a number 0 to 255",
            "ip.addr == 10.00.2.15             ~ 15 ~ '00' in '10.00.2.15': no leading zeros in an IPv4 address",
            "ip.addr == 10.0.2.0/33            ~ 21 ~ prefix length 33 is out of range for an IPv4 address (0 to 32)",
            "ip.addr == 10.0.2.0/              ~ 21 ~ a prefix length (0 to 32) after '/'",
            "ip.addr == 10.0.2.0/2a            ~ 21 ~ '2a' is not a prefix length (0 to 32)",
            "ip.addr == /24                    ~ 12 ~ an address before '/'",
            "ipv6.addr == fe80::/129           ~ 21 ~ prefix length 129 is out of range for an IPv6 address (0 to 128)",
            "ipv6.addr == fe80::1::2           ~ 21 ~ '::' may appear only once in 'fe80::1::2'",
            "ipv6.addr == fe80:1               ~ 14 ~ 'fe80:1' is not an IPv6 address: 2 groups where 8 are needed (or '::' for zeros)",
            "ipv6.addr == 1:2:3:4:5:6:7:8:9    ~ 30 ~ too many groups in the IPv6 address '1:2:3:4:5:6:7:8:9'",
            "ipv6.addr == 1:2:3:4::5:6:7:8     ~ 14 ~ '1:2:3:4::5:6:7:8' is not an IPv6 address: more than 7 groups besides '::'",
            "ipv6.addr == fe80::12345          ~ 20 ~ '12345' in 'fe80::12345' has more than 4 hex digits",
            "ipv6.addr == fe80::g1             ~ 20 ~ 'g' in 'fe80::g1' is not a hex digit",
            "ipv6.addr == :1::2                ~ 14 ~ an empty group in the IPv6 address ':1::2'",
            "ipv6.addr == ::ffff:10.0.2.300    ~ 28 ~ '300' in '10.0.2.300' is above 255",
            "ip.addr == ::1                    ~ 12 ~ 'ip.addr' is an IPv4 address and ::1 is IPv6 (IPv6 addresses are ipv6.addr)",
            "ipv6.src == 10.0.2.15             ~ 13 ~ 'ipv6.src' is an IPv6 address and 10.0.2.15 is IPv4 (IPv4 addresses are ip.src)",
            "ip.addr == 10                     ~ 12 ~ 'ip.addr' is an IPv4 address: compare it with an IPv4 address such as 10.0.2.15 or 10.0.2.0/24, not '10'",
            "ip.addr contains 10.0.2.15        ~ 9 ~ 'contains' needs a text or bytes field",
            "ip.addr > 10.0.2.0/24             ~ 9 ~ a CIDR block compares with == or != (or in a set)",
            "ip.addr == \"10.0.2.x\"           ~ 20 ~ 'x' in '10.0.2.x' is not a number 0 to 255",
            "tcp.port in {7174 20049           ~ 24 ~ set not closed with '}' (opened at column 13)",
            "tcp.port in {7174,                ~ 19 ~ expected a value after ',', found the end of the filter",
            "tcp.port in {7174,}               ~ 19 ~ expected a value after ',', found '}'",
            "tcp.port in {}                    ~ 14 ~ the set is empty",
            "tcp.port in 7174                  ~ 13 ~ expected '{' after 'in', found '7174'",
            "tcp.port in {10..1}               ~ 16 ~ the range 10..1 is empty: its low end is above its high end",
            "tcp.port in {1..}                 ~ 17 ~ expected the end of the range after '..', found '}'",
            "tcp.port in {..5}                 ~ 14 ~ expected a value before '..'",
            "tcp.port in {1 \"2\"}             ~ 16 ~ 'tcp.port' is a number: compare it with a number, not the string \"2\"",
            "ip.addr in {10.0.0.9..10.0.0.1}   ~ 21 ~ the range 10.0.0.9..10.0.0.1 is empty: its low end is above its high end",
            "rdmap.opcodeName in {\"a\"..\"b\"} ~ 25 ~ ranges are of numbers or addresses, not of 'rdmap.opcodeName' values (\"a\"..\"b\")",
            "rdmap in {1}                      ~ 7 ~ 'rdmap' is a layer: test it alone (e.g. 'rdmap' or '!rdmap')",
            "tcp.port == {1}                   ~ 13 ~ '{' starts a set only after 'in'",
            "tcp.port in {1 {2}}               ~ 16 ~ a set inside a set",
            "tcp.port == 1}                    ~ 14 ~ '}' without a matching '{'",
    })
    void malformedAddressesBlocksAndSetsNameTheColumn(String filter, int column, String reason) {
        FilterException e = catchThrowableOfType(() -> DisplayFilter.compile(filter), FilterException.class);
        assertThat(e).as(filter).isNotNull();
        assertThat(e.reason()).as(filter).isEqualTo(reason);
        assertThat(e.column()).as(filter).isEqualTo(column);
    }
}
