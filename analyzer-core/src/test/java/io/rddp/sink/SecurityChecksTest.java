package io.rddp.sink;

import io.rddp.ddp.DdpSegment;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.Terminate;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpConnection;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static io.rddp.sink.Wire.C2S;
import static io.rddp.sink.Wire.S2C;
import static io.rddp.sink.Wire.data;
import static io.rddp.sink.Wire.read;
import static org.assertj.core.api.Assertions.assertThat;

/** STag knowledge and RFC 5042 §6, from the registry and from the traffic. */
class SecurityChecksTest {

    private static TcpConnection connection(int index, int clientHost) {
        return new TcpConnection() {
            public int index() {
                return index;
            }

            public Endpoint client() {
                return new Endpoint(new byte[]{10, 0, 0, (byte) clientHost}, 40000 + index);
            }

            public Endpoint server() {
                return new Endpoint(new byte[]{10, 0, 0, 1}, 7174);
            }

            public boolean synSeen(Direction d) {
                return true;
            }

            public long initialSequence(Direction d) {
                return 0;
            }
        };
    }

    private static Terminate reporting(int layer, int etype, int code, DdpSegment s) {
        return Terminate.of(layer, etype, code, s.length(), s.header(), null);
    }

    @Test
    void unknownStagIsUnverifiableOncePerStag() {
        Recorder r = new Wire().started().hello()
                .send(C2S, RdmapEncoder.write(0x42, 0, data(100), 40))
                .send(C2S, RdmapEncoder.write(0x42, 0, data(100), 40).to(200)).end();
        assertThat(r.ids()).containsExactly("ddp.tagged.stag");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.INFO);
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.DDP_T_INVALID_STAG);
    }

    @Test
    void strictModeMakesAnUnknownStagInvalidAndThePeerOwesATerminate() {
        DdpSegment w = RdmapEncoder.write(0x42, 0, data(16), 1000).segments().get(0);
        Recorder r = new Wire(StagRegistry.empty(), true).started().hello().seg(C2S, w)
                .terminate(S2C, reporting(1, 1, 0, w)).end();
        assertThat(r.ids()).containsExactly("ddp.tagged.stag");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.ERROR);
        Recorder silent = new Wire(StagRegistry.empty(), true).started().hello().seg(C2S, w).close(S2C).end();
        assertThat(silent.ids()).containsExactly("ddp.tagged.stag", "rdmap.terminate.missing");
    }

    @Test
    void strictModeMakesAnUnknownReadSourceStagInvalid() {
        Recorder r = new Wire(Wire.registered(0x10), true).started().hello()
                .send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 8, 0x20, 0)))
                .terminate(S2C, Terminate.of(0, 1, 0)).end();
        assertThat(r.ids()).containsExactly("rdmap.remote-access.stag");
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.RDMA_INVALID_STAG);
    }

    @Test
    void writeOutsideTheRegisteredBufferIsABoundsError() {
        StagRegistry reg = StagRegistry.empty().add(StagRegistration.of(0x42, 1000, 100, Wire.RW));
        DdpSegment w = RdmapEncoder.write(0x42, 1090, data(20), 1000).segments().get(0);
        Recorder r = new Wire(reg, false).started().hello().seg(C2S, w).terminate(S2C, reporting(1, 1, 1, w)).end();
        assertThat(r.ids()).containsExactly("ddp.tagged.bounds");
        assertThat(r.violations.get(0).message()).contains("[1090, +20)").contains("[1000, +100)");
    }

    @Test
    void readBeyondTheRegisteredSourceBufferIsABoundsError() {
        StagRegistry reg = Wire.registered(0x10).add(StagRegistration.of(0x20, 0, 64, Wire.RW));
        Recorder r = new Wire(reg, false).started().hello()
                .send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 128, 0x20, 0)))
                .terminate(S2C, Terminate.of(0, 1, 1)).end();
        assertThat(r.ids()).containsExactly("rdmap.remote-access.bounds");
    }

    @Test
    void stagRegistryValidityWindowIsHonoured() {
        StagRegistry reg = StagRegistry.empty()
                .add(new StagRegistration(0x42, 0, 4096, Wire.RW, Side.SERVER, Set.of(), 0, 3));
        Recorder r = new Wire(reg, false).started().hello()
                .send(C2S, RdmapEncoder.write(0x42, 0, data(16), 1000)).end();
        assertThat(r.ids()).containsExactly("ddp.tagged.stag", "rdmap.terminate.missing");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.ERROR);
        assertThat(r.violations.get(0).message()).contains("not valid at frame 4");
    }

    @Test
    void stagRegisteredForAnotherStreamIsNotAssociated() {
        StagRegistry reg = StagRegistry.empty()
                .add(new StagRegistration(0x42, 0, 4096, Wire.RW, null, Set.of(3), 0, Long.MAX_VALUE));
        DdpSegment w = RdmapEncoder.write(0x42, 0, data(16), 1000).segments().get(0);
        Recorder r = new Wire(reg, false).started().hello().seg(C2S, w).terminate(S2C, reporting(1, 1, 2, w)).end();
        assertThat(r.ids()).containsExactly("security.stag-stream");
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.DDP_T_STAG_NOT_ASSOCIATED);
        assertThat(r.violations.get(0).rfc() + " " + r.violations.get(0).section()).isEqualTo("RFC 5042 §6.1.1");
    }

    @Test
    void stagOfOneHostUsedOnAnotherStreamToItIsAWarning() {
        Wire w = new Wire();
        w.model.onConnection(connection(0, 2));
        w.model.onConnection(connection(1, 3));
        w.started().hello().send(C2S, RdmapEncoder.write(0x55, 0, data(16), 1000));
        w.stream = 1;
        Recorder r = w.started().hello().send(C2S, RdmapEncoder.write(0x55, 0, data(16), 1000)).end();
        assertThat(r.ids()).containsExactly("ddp.tagged.stag", "security.stag-stream", "ddp.tagged.stag");
        Violation v = r.violations.get(1);
        assertThat(v.severity()).isEqualTo(Severity.WARNING);
        assertThat(v.stream()).isEqualTo(1);
        assertThat(v.message()).contains("first seen on stream 0");
    }

    @Test
    void withoutConnectionInfoEachStreamIsItsOwnStagNamespace() {
        Wire w = new Wire().started().hello().send(C2S, RdmapEncoder.write(0x55, 0, data(16), 1000));
        w.stream = 1;
        Recorder r = w.started().hello().send(C2S, RdmapEncoder.write(0x55, 0, data(16), 1000)).end();
        assertThat(r.ids()).containsExactly("ddp.tagged.stag", "ddp.tagged.stag");
    }

    @Test
    void writeAfterSendWithInvalidateIsAnError() {
        DdpSegment w = RdmapEncoder.write(0x42, 0, data(16), 1000).segments().get(0);
        Recorder r = new Wire(Wire.registered(0x42), false).started()
                .send(C2S, RdmapEncoder.sendWithInvalidate(1, data(4), 1000, 0x42))
                .seg(C2S, w).terminate(S2C, reporting(1, 1, 0, w)).end();
        assertThat(r.ids()).containsExactly("security.stag-invalidated");
        Violation v = r.violations.get(0);
        assertThat(v.severity()).isEqualTo(Severity.ERROR);
        assertThat(v.frames()).containsExactly(3L, 4L);
        assertThat(v.errorType()).isEqualTo(ErrorType.DDP_T_INVALID_STAG);
    }

    @Test
    void readOfAnInvalidatedSourceStagIsAnError() {
        Recorder r = new Wire(Wire.registered(0x10, 0x20), false).started()
                .send(C2S, RdmapEncoder.sendWithInvalidate(1, data(4), 1000, 0x20))
                .send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 8, 0x20, 0)))
                .terminate(S2C, Terminate.of(0, 1, 0)).end();
        assertThat(r.ids()).containsExactly("security.stag-invalidated");
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.RDMA_INVALID_STAG);
    }

    @Test
    void aSendOfTheOwnerSinceTheInvalidationMakesLaterUseOnlyAWarning() {
        Recorder r = new Wire(Wire.registered(0x42), false).started()
                .send(C2S, RdmapEncoder.sendWithInvalidate(1, data(4), 1000, 0x42))
                .send(S2C, RdmapEncoder.send(1, data(16), 1000))
                .send(C2S, RdmapEncoder.write(0x42, 0, data(16), 1000)).end();
        assertThat(r.ids()).containsExactly("security.stag-invalidated");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.WARNING);
    }

    @Test
    void advertisingTheStagAgainAsAReadSinkRevalidatesIt() {
        Recorder r = new Wire(Wire.registered(0x42, 0x20), false).started()
                .send(C2S, RdmapEncoder.sendWithInvalidate(1, data(4), 1000, 0x42))
                .send(S2C, RdmapEncoder.readRequest(1, read(0x42, 0, 8, 0x20, 0)))
                .send(C2S, RdmapEncoder.readResponse(0x42, 0, data(8), 1000)).end();
        assertThat(r.violations).isEmpty();
    }

    @Test
    void invalidatingAnStagRegisteredForAnotherStreamIsAnError() {
        StagRegistry reg = StagRegistry.empty()
                .add(new StagRegistration(0x42, 0, 4096, Wire.RW, null, Set.of(5), 0, Long.MAX_VALUE));
        Recorder r = new Wire(reg, false).started()
                .send(C2S, RdmapEncoder.sendWithInvalidate(1, data(4), 1000, 0x42))
                .terminate(S2C, Terminate.of(0, 2, 9)).end();
        assertThat(r.ids()).containsExactly("rdmap.send-invalidate");
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.RDMA_PROTECTION_CANNOT_INVALIDATE);
    }

    @Test
    void strictModeMakesInvalidatingAnUnknownStagAnError() {
        Recorder r = new Wire(Wire.registered(0x10), true).started()
                .send(C2S, RdmapEncoder.sendWithInvalidate(1, data(4), 1000, 0x42))
                .terminate(S2C, Terminate.of(0, 1, 9)).end();
        assertThat(r.ids()).containsExactly("rdmap.send-invalidate");
        assertThat(r.owed).hasSize(1);
        assertThat(r.owed.get(0).level()).isEqualTo(OwedTerminate.Level.MUST);
        Recorder lax = new Wire(Wire.registered(0x10), false).started()
                .send(C2S, RdmapEncoder.sendWithInvalidate(1, data(4), 1000, 0x42)).end();
        assertThat(lax.violations).isEmpty();
    }

    @Test
    void revokedRegistrationsAreNotValidAfterwards() {
        StagRegistry reg = Wire.registered(0x42);
        Wire w = new Wire(reg, true).started();
        w.send(C2S, RdmapEncoder.write(0x42, 0, data(16), 1000));
        reg.revoke(0x42, w.frame);
        Recorder r = w.send(C2S, RdmapEncoder.write(0x42, 16, data(16), 1000)).end();
        assertThat(r.ids()).containsExactly("ddp.tagged.stag", "rdmap.terminate.missing");
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.DDP_T_INVALID_STAG);
    }

    @Test
    void writeToAReadOnlyBufferIsAnAccessViolation() {
        StagRegistry reg = StagRegistry.empty()
                .add(StagRegistration.of(0x42, 0, 4096, Set.of(StagRegistration.Access.READ)));
        DdpSegment w = RdmapEncoder.write(0x42, 0, data(16), 1000).segments().get(0);
        Recorder r = new Wire(reg, false).started().hello().seg(C2S, w).terminate(S2C, reporting(1, 1, 0, w)).end();
        assertThat(r.ids()).containsExactly("security.access");
        assertThat(r.violations.get(0).message()).contains("needs WRITE access");
    }

    @Test
    void readOfAWriteOnlyBufferIsAnAccessViolation() {
        // RFC 5042 §6.3.5 "RDMA Read into an RDMA Write Buffer"
        StagRegistry reg = Wire.registered(0x10)
                .add(StagRegistration.of(0x20, 0, 4096, Set.of(StagRegistration.Access.WRITE)));
        DdpSegment req = RdmapEncoder.readRequest(1, read(0x10, 0, 8, 0x20, 0)).segments().get(0);
        Terminate t = Terminate.of(0, 1, 2, req.length(), req.header(), read(0x10, 0, 8, 0x20, 0));
        Recorder r = new Wire(reg, false).started().hello().seg(C2S, req).terminate(S2C, t).end();
        assertThat(r.ids()).containsExactly("security.access");
        assertThat(r.violations.get(0).message()).contains("needs READ access");
    }

    @Test
    void readingABufferItsOwnerAdvertisedAsAReadSinkIsNoted() {
        // the server's Read Request advertises its 0x30 for the client to write; the client then reads 0x30
        Recorder r = new Wire(Wire.registered(0x40, 0x41), false).started().hello()
                .send(S2C, RdmapEncoder.readRequest(1, read(0x30, 0, 8, 0x41, 0)))
                .send(C2S, RdmapEncoder.readResponse(0x30, 0, data(8), 1000))
                .send(C2S, RdmapEncoder.readRequest(1, read(0x40, 0, 8, 0x30, 0)))
                .send(S2C, RdmapEncoder.readResponse(0x40, 0, data(8), 1000)).end();
        assertThat(r.ids()).containsExactly("security.access", "rdmap.remote-access.stag");
        assertThat(r.violations).allMatch(v -> v.severity() == Severity.INFO);
        assertThat(r.violations.get(0).frames()).containsExactly(4L, 6L);
    }

    @Test
    void zeroLengthReadOfAWriteOnlyBufferIsAllowed() {
        // RFC 5042 §6.3.5: "this requirement is not meant to restrict the use of zero-length RDMA Reads"
        StagRegistry reg = StagRegistry.empty()
                .add(StagRegistration.of(0x20, 0, 4096, Set.of(StagRegistration.Access.WRITE)));
        Recorder r = new Wire(reg, false).started().hello()
                .send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 0, 0x20, 0)))
                .send(S2C, RdmapEncoder.readResponse(0x10, 0, data(0), 1000)).end();
        assertThat(r.violations).isEmpty();
    }

    @Test
    void readResponseWithoutARequestIsUnsolicited() {
        Recorder r = new Wire(Wire.registered(0x10), false).started().hello()
                .send(S2C, RdmapEncoder.readResponse(0x10, 0, data(8), 1000)).end();
        assertThat(r.ids()).containsExactly("security.read-response-unsolicited");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.ERROR);
    }

    @Test
    void readResponseWithoutARequestInACaptureJoinedMidStreamIsOnlyInfo() {
        Recorder r = new Wire(Wire.registered(0x10), false)
                .send(S2C, RdmapEncoder.readResponse(0x10, 0, data(8), 1000)).end();
        assertThat(r.ids()).containsExactly("security.read-response-unsolicited");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.INFO);
    }
}
