package io.rddp.filter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class FilterParserTest {

    private static Expr parse(String s) throws FilterException {
        return DisplayFilter.compile(s).expression();
    }

    @Test
    void andBindsTighterThanOrAndNotTighterThanAnd() throws Exception {
        assertThat(parse("rdmap.opcode == 3 || ddp.tagged && !ddp.last").toString())
                .isEqualTo("(rdmap.opcode == 3 || (ddp.tagged && !ddp.last))");
        assertThat(parse("not stream == 2 and frame > 10 or violation").toString())
                .isEqualTo("((!(stream == 2) && frame > 10) || violation)");
        assertThat(parse("(rdmap.opcode eq 3 or rdmap.opcode eq 4) and ddp.msn ge 0x10").toString())
                .isEqualTo("((rdmap.opcode == 3 || rdmap.opcode == 4) && ddp.msn >= 16)");
    }

    @Test
    void valuesAreTypedByTheField() throws Exception {
        assertThat(parse("ddp.to == 0xffffffffffffffff")).isEqualTo(
                new Expr.Compare("ddp.to", Expr.Op.EQ, new Expr.Literal(-1L)));
        assertThat(parse("ddp.last == 1")).isEqualTo(
                new Expr.Compare("ddp.last", Expr.Op.EQ, new Expr.Literal(true)));
        assertThat(parse("rdmap.opcodeName contains \"Read \\\"x\\\"\"").toString())
                .isEqualTo("rdmap.opcodeName contains \"Read \\\"x\\\"\"");
        assertThat(parse("mpa.privateData contains \"0a:1B\"")).isEqualTo(
                new Expr.Compare("mpa.privateData", Expr.Op.CONTAINS, new Expr.Literal(new byte[]{0x0a, 0x1b})));
        assertThat(DisplayFilter.compile("violation && rdmap").uses("violation")).isTrue();
        assertThat(DisplayFilter.compile("violation.check == \"ddp.untagged.msn\"").uses("violation")).isTrue();
        assertThat(DisplayFilter.compile("rdmap.opcode == 1").uses("violation")).isFalse();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '~', value = {
            "''                               ~ 1 ~ the filter is empty",
            "rdmap.opcode ==                  ~ 16 ~ expected a value after '==', found the end of the filter",
            "rdmap.opcode = 3                 ~ 14 ~ '=' is not an operator: use '=='",
            "ddp.msm > 10                     ~ 1 ~ unknown field 'ddp.msm' (did you mean 'ddp.msn'?)",
            "rdmap.opcode == \"Send\"         ~ 17 ~ 'rdmap.opcode' is a number: compare it with a number, not the string \"Send\"",
            "(stream == 2                     ~ 13 ~ expected ')' to close the '(' at column 1, found the end of the filter",
            "stream == 2)                     ~ 12 ~ ')' without a matching '('",
            "stream == 2 stream               ~ 13 ~ expected '&&', '||' or the end of the filter, found 'stream'",
            "frame > 99999999999999999999     ~ 9 ~ '99999999999999999999' is not a number (decimal or 0x hex, at most 64 bits)",
            "ddp.last > 0                     ~ 10 ~ 'ddp.last' is yes/no: use == or !=",
            "rdmap == 1                       ~ 7 ~ 'rdmap' is a layer: test it alone (e.g. 'rdmap' or '!rdmap')",
            "stream == 1 & frame == 2         ~ 13 ~ '&' is not an operator: use '&&'",
            "rdmap.opcodeName == \"Send       ~ 21 ~ string not closed with '\"'",
            "stream == 1 && $                 ~ 16 ~ unexpected character '$'",
            "&& stream                        ~ 1 ~ expected a field name, '(' or '!', found '&&'",
    })
    void errorsNameTheColumnAndWhatWasExpected(String filter, int column, String reason) {
        FilterException e = catchThrowableOfType(() -> DisplayFilter.compile(filter.strip()), FilterException.class);
        assertThat(e).as(filter).isNotNull();
        assertThat(e.reason()).isEqualTo(reason);
        assertThat(e.column()).isEqualTo(column);
        assertThat(e.getMessage()).isEqualTo("column " + column + ": " + reason);
    }

    @Test
    void completionAndRegistry() {
        assertThat(FilterFields.complete("ddp.m")).containsExactly("ddp.mo", "ddp.msn");
        assertThat(FilterFields.get("rdmap.readRequest.size").kind()).isEqualTo(FilterFields.Kind.NUMBER);
        assertThat(FilterFields.get("rpcrdma").kind()).isEqualTo(FilterFields.Kind.LAYER);
        assertThatThrownBy(() -> DisplayFilter.compile(null)).isInstanceOf(NullPointerException.class);
    }
}
