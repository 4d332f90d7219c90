package io.rddp.filter;

import io.rddp.filter.Expr.Literal;
import io.rddp.filter.Expr.Op;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Canonical text parses back to the same expression; the evaluator follows boolean algebra and unsigned order. */
class FilterRoundTripProperties {

    private static final List<String> NUMBERS = List.of("frame", "stream", "ddp.msn", "ddp.to", "rdmap.opcode",
            "mpa.ulpduLength", "rpcrdma.reads.handle");
    private static final List<String> BOOLS = List.of("violation", "ddp.tagged", "ddp.last", "mpa.crcOk");
    private static final List<String> TEXTS = List.of("rdmap.opcodeName", "violation.check", "rpc.ops");

    @Provide
    Arbitrary<Expr> expressions() {
        return expr(4);
    }

    private Arbitrary<Expr> expr(int depth) {
        Arbitrary<Expr> leaf = Arbitraries.oneOf(
                Arbitraries.of(NUMBERS).flatMap(f -> Arbitraries.of(Op.EQ, Op.NE, Op.LT, Op.LE, Op.GT, Op.GE)
                        .flatMap(op -> Arbitraries.longs().map(n -> (Expr) new Expr.Compare(f, op, new Literal(n)))))
                ,
                Arbitraries.of(BOOLS).flatMap(f -> Arbitraries.of(Op.EQ, Op.NE).flatMap(op ->
                        Arbitraries.of(true, false).map(b -> (Expr) new Expr.Compare(f, op, new Literal(b))))),
                Arbitraries.of(TEXTS).flatMap(f -> Arbitraries.of(Op.EQ, Op.CONTAINS, Op.LT).flatMap(op ->
                        Arbitraries.strings().ofMaxLength(6).withChars("ab\"\\ &|()=!")
                                .map(s -> (Expr) new Expr.Compare(f, op, new Literal(s))))),
                Arbitraries.of("rdmap", "ddp", "violation", "rpcrdma", "ddp.last").map(Expr.Present::new),
                addresses(),
                Arbitraries.longs().list().ofMinSize(1).ofMaxSize(3).map(ns -> (Expr) new Expr.In("tcp.port",
                        ns.stream().map(n -> new Expr.Element(new Literal(n), null)).toList())));
        if (depth == 0) return leaf;
        Arbitrary<Expr> sub = expr(depth - 1);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, leaf),
                net.jqwik.api.Tuple.of(1, sub.map(Expr.Not::new)),
                net.jqwik.api.Tuple.of(1, net.jqwik.api.Combinators.combine(sub, sub).as(Expr.And::new)),
                net.jqwik.api.Tuple.of(1, net.jqwik.api.Combinators.combine(sub, sub).as(Expr.Or::new)));
    }

    /** Comparisons of ip.* and ipv6.* with addresses and CIDR blocks of their family. */
    private Arbitrary<Expr> addresses() {
        return Arbitraries.of(true, false).flatMap(v6 -> Arbitraries.bytes().array(byte[].class).ofSize(v6 ? 16 : 4)
                .flatMap(octets -> Arbitraries.integers().between(-1, v6 ? 128 : 32).flatMap(bits ->
                        Arbitraries.of(Op.EQ, Op.NE, Op.LT, Op.GE).map(op -> {
                            IpAddress a = new IpAddress(octets);
                            boolean block = bits >= 0 && (op == Op.EQ || op == Op.NE);
                            return (Expr) new Expr.Compare(v6 ? "ipv6.addr" : "ip.src", op,
                                    new Literal(block ? new IpPrefix(a, bits) : a));
                        }))));
    }

    @Property(tries = 500)
    void canonicalTextParsesBackToTheSameExpression(@ForAll("expressions") Expr e) throws FilterException {
        assertThat(FilterParser.parse(e.toString())).isEqualTo(e);
    }

    @Property(tries = 300)
    void notAndDeMorganHoldOnEveryRecord(@ForAll("expressions") Expr a, @ForAll("expressions") Expr b,
                                         @ForAll long msn, @ForAll boolean last) {
        FieldRecord r = new FieldRecord();
        r.put("ddp.msn", msn);
        r.put("ddp.last", last);
        r.put("rdmap.opcodeName", "RDMA Write");
        r.put("violation", !last);
        assertThat(DisplayFilter.eval(new Expr.Not(a), r)).isEqualTo(!DisplayFilter.eval(a, r));
        assertThat(DisplayFilter.eval(new Expr.Not(new Expr.And(a, b)), r))
                .isEqualTo(DisplayFilter.eval(new Expr.Or(new Expr.Not(a), new Expr.Not(b)), r));
    }

    @Property(tries = 300)
    void numbersCompareUnsigned(@ForAll long value, @ForAll long literal) throws FilterException {
        FieldRecord r = new FieldRecord();
        r.put("ddp.to", value);
        boolean lt = DisplayFilter.compile("ddp.to < " + Long.toUnsignedString(literal)).matches(r);
        assertThat(lt).isEqualTo(Long.compareUnsigned(value, literal) < 0);
        boolean hexEq = DisplayFilter.compile("ddp.to == 0x" + Long.toHexString(literal)).matches(r);
        assertThat(hexEq).isEqualTo(value == literal);
    }
}
