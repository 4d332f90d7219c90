package io.rddp.conformance;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Value expressions: one grammar evaluated at run time and checked at load time. */
class ExpressionTest {

    private static final Map<String, Long> NAMES = Map.of("dut.stag", 0x1200L, "dut.to", 0x1000L, "dut.end", 0x2000L,
            "other.stag", 0x3401L, "mulpdu.untagged", 1400L);

    private static long eval(String e, String field) {
        return Expression.evaluate(e, field, NAMES::get);
    }

    @Test
    void termsJoinWithPlusMinusAndXor() {
        assertThat(eval("dut.end-16", "to")).isEqualTo(0x2000L - 16);
        assertThat(eval("other.stag^0x01", "stag")).isEqualTo(0x3400L);
        assertThat(eval("mulpdu.untagged+1", "length")).isEqualTo(1401L);
        assertThat(eval("dut.to + 0x100000000", "to")).isEqualTo(0x1000L + 0x100000000L);
    }

    @Test
    void numbersAreDecimalOrHexAndMayBeNegative() {
        assertThat(eval("0xFFFFFFFFFFFFFFF0", "to")).isEqualTo(-16L);
        assertThat(eval("-1", "msn")).isEqualTo(-1L);
        assertThat(eval("16", "length")).isEqualTo(16L);
    }

    @Test
    void aLoneDutIsTheBuffersStagOrToByTheFieldsName() {
        assertThat(eval("dut", "src-stag")).isEqualTo(0x1200L);
        assertThat(eval("dut", "src-to")).isEqualTo(0x1000L);
    }

    @Test
    void theLoaderNamesWhatIsWrongWithAnExpression() {
        Set<String> buffers = Set.of("dut", "tester", "other");
        assertThat(Expression.problem("other.end-8", buffers, false)).isNull();
        assertThat(Expression.problem("sink.to+8", buffers, true)).isNull();
        assertThat(Expression.problem("sink.to+8", buffers, false)).contains("unknown term \"sink.to\"");
        assertThat(Expression.problem("gone.stag", buffers, false)).contains("unknown term \"gone.stag\"");
        assertThat(Expression.problem("dut.size", buffers, false)).contains("unknown field \"size\" of buffer dut");
        assertThat(Expression.problem("dut.to+", buffers, false)).contains("an operator without a term");
        assertThat(Expression.problem("16k", buffers, false)).contains("unknown term \"16k\"");
    }
}
