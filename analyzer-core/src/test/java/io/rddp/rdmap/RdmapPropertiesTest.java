package io.rddp.rdmap;

import io.rddp.MalformedException;
import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.DdpMessage;
import io.rddp.ddp.DdpMessageAssembler;
import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

class RdmapPropertiesTest {

    static Arbitrary<Long> u32() {
        return Arbitraries.oneOf(Arbitraries.of(0L, 1L, 2L, 0x8000_0000L, 0xFFFF_FFFEL, 0xFFFF_FFFFL),
                Arbitraries.longs().between(0, 0xFFFF_FFFFL));
    }

    static Arbitrary<Long> u64() {
        return Arbitraries.oneOf(Arbitraries.of(0L, 1L, Long.MAX_VALUE, Long.MIN_VALUE, -2L, -1L),
                Arbitraries.longs());
    }

    static Arbitrary<ReadRequest> readRequests() {
        return Combinators.combine(u32(), u64(), u32(), u32(), u64()).as(ReadRequest::new);
    }

    static Arbitrary<DdpHeader> ddpHeaders() {
        Arbitrary<DdpHeader> t = Combinators.combine(Arbitraries.of(true, false), Arbitraries.integers().between(0, 255),
                u32(), u64()).as((l, ulp, stag, to) -> TaggedHeader.of(l, ulp, stag, to));
        Arbitrary<DdpHeader> u = Combinators.combine(Arbitraries.of(true, false),
                Arbitraries.longs().between(0, UntaggedHeader.RSVD_ULP_MASK), u32(), u32(), u32())
                .as((l, ulp, qn, msn, mo) -> UntaggedHeader.of(l, ulp, qn, msn, mo));
        return Arbitraries.oneOf(t, u);
    }

    static Arbitrary<Terminate> terminates() {
        Arbitrary<Integer> nib = Arbitraries.integers().between(0, 15);
        Arbitrary<Integer> code = Arbitraries.integers().between(0, 255);
        Arbitrary<Terminate> bare = Combinators.combine(nib, nib, code, Arbitraries.of(true, false),
                Arbitraries.integers().between(0, 0x1FFF))
                .as((l, e, c, m, r) -> new Terminate(l, e, c, m, false, false, r, -1, null, null));
        Arbitrary<Terminate> withHeaders = Combinators.combine(nib, nib, code,
                Arbitraries.integers().between(0, 0xFFFF), ddpHeaders(), readRequests().injectNull(0.5))
                .as(Terminate::of);
        return Arbitraries.oneOf(bare, withHeaders);
    }

    static Arbitrary<AtomicRequest> atomicRequests() {
        return Combinators.combine(Arbitraries.integers().between(0, 0x0FFF_FFFF), Arbitraries.integers().between(0, 15),
                u32(), u32(), u64(), Combinators.combine(u64(), u64(), u64(), u64()).as(List::of))
                .as((res, op, id, stag, to, d) -> new AtomicRequest(res, op, id, stag, to, d.get(0), d.get(1),
                        d.get(2), d.get(3)));
    }

    /** A message to encode and what its first segment must decode to. */
    record Case(RdmapEncoder.Builder builder, Opcode opcode, long id, long to, long invalidate, RdmapHeader header,
                int dataLength) {
        @Override
        public String toString() {
            return opcode + " id " + id + " TO " + Long.toUnsignedString(to) + " inv " + invalidate + " header "
                    + header + " data " + dataLength;
        }
    }

    /** One message of every opcode, with random field values (edges included) and random MULPDU. */
    @Provide
    Arbitrary<Case> messages() {
        Arbitrary<Integer> data = Arbitraries.integers().between(0, 3000);
        Arbitrary<Integer> mulpdu = Arbitraries.integers().between(18 + 1, 1600);
        Arbitrary<Case> tagged = Combinators.combine(Arbitraries.of(true, false), u32(), u64(), data, mulpdu)
                .as((w, stag, to, d, m) -> w
                        ? new Case(RdmapEncoder.write(stag, to, ByteBuffer.allocate(d), m), Opcode.RDMA_WRITE, stag,
                        to, -1, null, d)
                        : new Case(RdmapEncoder.readResponse(stag, to, ByteBuffer.allocate(d), m),
                        Opcode.RDMA_READ_RESPONSE, stag, to, -1, null, d));
        Arbitrary<Case> sends = Combinators.combine(Arbitraries.integers().between(0, 3), u32(), data, mulpdu, u32())
                .as((k, msn, d, m, inv) -> switch (k) {
                    case 0 -> new Case(RdmapEncoder.send(msn, ByteBuffer.allocate(d), m), Opcode.SEND, msn, 0, 0,
                            null, d);
                    case 1 -> new Case(RdmapEncoder.sendWithSe(msn, ByteBuffer.allocate(d), m), Opcode.SEND_WITH_SE,
                            msn, 0, 0, null, d);
                    case 2 -> new Case(RdmapEncoder.sendWithInvalidate(msn, ByteBuffer.allocate(d), m, inv),
                            Opcode.SEND_WITH_INVALIDATE, msn, 0, inv, null, d);
                    default -> new Case(RdmapEncoder.sendWithSeAndInvalidate(msn, ByteBuffer.allocate(d), m, inv),
                            Opcode.SEND_WITH_SE_AND_INVALIDATE, msn, 0, inv, null, d);
                });
        Arbitrary<Case> headered = Combinators.combine(u32(), Arbitraries.integers().between(0, 5),
                readRequests(), terminates(), atomicRequests(), Combinators.combine(u32(), u64()).as(AtomicResponse::new),
                u64()).as((msn, k, rr, term, areq, aresp, imm) -> switch (k) {
            case 0 -> new Case(RdmapEncoder.readRequest(msn, rr), Opcode.RDMA_READ_REQUEST, msn, 0, 0, rr, 0);
            case 1 -> new Case(RdmapEncoder.terminate(msn, term), Opcode.TERMINATE, msn, 0, 0, term, 0);
            case 2 -> new Case(RdmapEncoder.atomicRequest(msn, areq), Opcode.ATOMIC_REQUEST, msn, 0, 0, areq, 0);
            case 3 -> new Case(RdmapEncoder.atomicResponse(msn, aresp), Opcode.ATOMIC_RESPONSE, msn, 0, 0, aresp, 0);
            case 4 -> new Case(RdmapEncoder.immediateData(msn, imm), Opcode.IMMEDIATE_DATA, msn, 0, 0,
                    new ImmediateData(imm), 0);
            default -> new Case(RdmapEncoder.immediateDataWithSe(msn, imm), Opcode.IMMEDIATE_DATA_WITH_SE, msn, 0, 0,
                    new ImmediateData(imm), 0);
        });
        return Arbitraries.oneOf(tagged, sends, headered);
    }

    @Property(tries = 1500)
    void everyOpcodeSurvivesEncodeThenDecode(@ForAll("messages") Case c) throws MalformedException {
        List<DdpSegment> segments = c.builder().segments();
        List<ByteBuffer> ulpdus = c.builder().ulpdus();
        assertThat(ulpdus).hasSameSizeAs(segments);
        List<DdpMessage> messages = new ArrayList<>();
        DdpMessageAssembler assembler = new DdpMessageAssembler(messages::add);
        long payload = 0;
        for (int i = 0; i < ulpdus.size(); i++) {
            DdpSegment parsed = DdpSegment.parse(ulpdus.get(i));
            assertThat(parsed).isEqualTo(segments.get(i));
            RdmapPdu pdu = RdmapDecoder.decode(parsed);
            assertThat(pdu.opcode()).isEqualTo(c.opcode());
            assertThat(pdu.control()).isEqualTo(RdmapControl.of(c.opcode()));
            assertThat(pdu.ddp().tagged()).isEqualTo(c.opcode().tagged());
            assertThat(pdu.ddp().last()).isEqualTo(i == ulpdus.size() - 1);
            if (pdu.ddp() instanceof UntaggedHeader u) {
                assertThat(u.qn()).isEqualTo(c.opcode().queueNumber());
                assertThat(u.msn()).isEqualTo(c.id());
                assertThat(pdu.invalidateStag()).isEqualTo(c.invalidate());
            } else {
                TaggedHeader t = (TaggedHeader) pdu.ddp();
                assertThat(t.stag()).isEqualTo(c.id());
                assertThat(t.to()).isEqualTo(c.to() + payload);
                assertThat(pdu.invalidateStag()).isEqualTo(-1);
            }
            assertThat(pdu.body()).isEqualTo(i == 0 ? c.header() : null);
            payload += pdu.payload().remaining() + (pdu.body() == null ? 0 : pdu.body().length());
            assembler.accept(parsed, i + 1);
        }
        int expectedLength = c.dataLength() + (c.header() == null ? 0 : c.header().length());
        assertThat(payload).isEqualTo(expectedLength);
        int control = RdmapControl.of(c.opcode()).toByte();
        assertThat(messages).singleElement().satisfies(m -> {
            assertThat(m.segments()).isEqualTo(segments.size());
            assertThat(m.length()).isEqualTo(expectedLength);
            assertThat(m.end()).isEqualTo(DdpMessage.End.COMPLETE);
            assertThat(m.rsvdUlpFirstOctet()).isEqualTo(control);
        });
    }

    @Property(tries = 500)
    void headersRoundTripThroughTheirOwnCodec(@ForAll("headerBodies") RdmapHeader h) throws MalformedException {
        ByteBuffer b = ByteBuffer.allocate(h.length());
        h.writeTo(b);
        assertThat(b.hasRemaining()).isFalse();
        b.flip();
        RdmapHeader back;
        if (h instanceof ReadRequest) back = ReadRequest.parse(b);
        else if (h instanceof Terminate) back = Terminate.parse(b);
        else if (h instanceof AtomicRequest) back = AtomicRequest.parse(b);
        else if (h instanceof AtomicResponse) back = AtomicResponse.parse(b);
        else back = ImmediateData.parse(b);
        assertThat(back).isEqualTo(h);
    }

    @Provide
    Arbitrary<RdmapHeader> headerBodies() {
        return Arbitraries.oneOf(readRequests(), terminates(), atomicRequests(),
                Combinators.combine(u32(), u64()).as(AtomicResponse::new), u64().map(ImmediateData::new));
    }

    @Property(tries = 3000)
    void randomBytesDecodeOrAreMalformedNothingElse(@ForAll @Size(max = 90) byte[] bytes) {
        try {
            RdmapPdu pdu = RdmapDecoder.decode(ByteBuffer.wrap(bytes));
            int body = pdu.body() == null ? 0 : pdu.body().length();
            assertThat(pdu.ddp().headerLength() + body + pdu.payload().remaining()).isEqualTo(bytes.length);
        } catch (MalformedException e) {
            assertThat(e.getMessage()).isNotBlank();
        } catch (RuntimeException e) {
            fail("decode threw " + e);
        }
    }

    @Property(tries = 1000)
    void randomUntaggedFirstSegmentsOfHeaderedOpcodesNeverThrowAnythingElse(
            @ForAll @IntRange(min = 0, max = 15) int opcode, @ForAll @Size(max = 80) byte[] payload) {
        ByteBuffer ulpdu = ByteBuffer.allocate(18 + payload.length);
        UntaggedHeader.of(true, (long) (0x40 | opcode) << 32, 0, 1, 0).writeTo(ulpdu);
        ulpdu.put(payload).flip();
        try {
            RdmapPdu pdu = RdmapDecoder.decode(ulpdu);
            assertThat(pdu.control().opcode()).isEqualTo(opcode);
            Opcode op = Opcode.of(opcode);
            if (op != null && op.headerLength() > 0) assertThat(pdu.body()).isNotNull();
        } catch (MalformedException e) {
            Opcode op = Opcode.of(opcode);
            assertThat(op).isNotNull();
            assertThat(e.getMessage()).startsWith(op.rfcName() + ": ");
        } catch (RuntimeException e) {
            fail("decode threw " + e);
        }
    }
}
