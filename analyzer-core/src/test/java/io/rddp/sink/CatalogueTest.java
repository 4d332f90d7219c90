package io.rddp.sink;

import io.rddp.rdmap.TerminateCodes;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The check catalogue and the Terminate error types it names. */
class CatalogueTest {

    @Test
    void checkIdsAreUniqueStableDottedNames() {
        Set<String> ids = new HashSet<>();
        for (Check c : SinkModel.checks()) {
            assertThat(ids.add(c.id())).as(c.id()).isTrue();
            assertThat(c.id()).matches("(mpa|ddp|rdmap|rpcrdma|security)\\.[a-z0-9.-]+");
            assertThat(Check.byId(c.id())).isSameAs(c);
        }
        assertThat(Check.byId("no.such.check")).isNull();
    }

    @Test
    void everyCheckCitesAnRfcSectionAndAKnownErrorType() {
        for (Check c : SinkModel.checks()) {
            assertThat(c.rfc()).as(c.id()).isIn("RFC 5040", "RFC 5041", "RFC 5042", "RFC 5044", "RFC 6581",
                    "RFC 7306", "RFC 8166");
            assertThat(c.section()).as(c.id()).matches("§\\d+(\\.\\d+)*");
            if (c.errorType() != null) assertThat(c.errorType().isDefined()).as(c.id()).isTrue();
            assertThat(c.title()).isNotBlank();
        }
    }

    @Test
    void errorTypeNamesAreTheRfcTablesWording() {
        // RFC 5041 §7.2
        assertThat(ErrorType.DDP_U_MSN_RANGE.toString())
                .isEqualTo("1/2/3 (DDP Untagged Buffer Error: Invalid MSN - MSN range is not valid)");
        assertThat(ErrorType.DDP_T_STAG_NOT_ASSOCIATED.name())
                .isEqualTo("DDP Tagged Buffer Error: STag not associated with DDP Stream");
        // RFC 5040 §4.8 Figure 9
        assertThat(ErrorType.RDMA_ACCESS_RIGHTS.name())
                .isEqualTo("RDMA Remote Protection Error: Access rights violation");
        assertThat(ErrorType.RDMA_CATASTROPHIC_STREAM.name())
                .isEqualTo("RDMA Remote Operation Error: Catastrophic error, localized to RDMAP Stream");
        // RFC 5044 §8, RFC 6581 §8
        assertThat(ErrorType.MPA_CRC.name()).isEqualTo("LLP MPA Error: MPA CRC Error");
        assertThat(ErrorType.MPA_NO_MATCHING_RTR.name()).isEqualTo("LLP MPA Error: No Matching RTR Option");
        assertThat(TerminateCodes.errorTypeName(1, 2)).isEqualTo("Untagged Buffer Error");
    }

    @Test
    void localCatastrophicMatchesWhateverItsCode() {
        assertThat(new ErrorType(1, 0, 0).matches(new ErrorType(1, 0, 0x7F))).isTrue();
        assertThat(ErrorType.DDP_U_MSN_RANGE.matches(ErrorType.DDP_U_NO_BUFFER)).isFalse();
        assertThat(new ErrorType(0, 2, 0x33).isDefined()).isFalse();
        assertThat(new ErrorType(0, 0, 0x12).isDefined()).isTrue();
    }

    @Test
    void aConsumerOfViolationsIsEnoughToRunTheModel() {
        java.util.List<Violation> out = new java.util.ArrayList<>();
        SinkModel m = SinkModel.reportingTo(out::add);
        m.onStartFrame(0, io.rddp.tcp.Direction.CLIENT_TO_SERVER, StartFrames.request(null), 1);
        m.onStartFrame(0, io.rddp.tcp.Direction.SERVER_TO_CLIENT, StartFrames.request(null), 2);
        m.onEnd();
        assertThat(out).extracting(Violation::id).containsExactly("mpa.start.sequence");
    }

    @Test
    void violationPrintsSeverityIdFrameRfcAndErrorType() {
        Violation v = new Violation(12, java.util.List.of(12L), 0, io.rddp.tcp.Direction.CLIENT_TO_SERVER,
                Check.DDP_MSN, "RFC 5041", "§4.3", ErrorType.DDP_U_MSN_RANGE, Severity.ERROR, "MSN 3, expected 2");
        assertThat(v.toString()).isEqualTo("error ddp.untagged.msn frame 12 stream 0 c>s: MSN 3, expected 2"
                + " [RFC 5041 §4.3; Terminate 1/2/3 (DDP Untagged Buffer Error: Invalid MSN - MSN range is not valid)]");
        assertThat(v.layer()).isEqualTo(Layer.DDP);
    }
}
