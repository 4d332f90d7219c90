package io.rddp.conformance;

import io.rddp.rnic.link.Link;
import io.rddp.sink.ErrorType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Every grading path of the judge, from the facts of a scenario run to its verdict, grade and notes. */
class JudgeTest {

    private static final Requirement MUST = new Requirement("r.must", "RFC 5041", "§7.1", "MUST", "must");
    private static final Requirement SHOULD = new Requirement("r.should", "RFC 5040", "§6.2.1", "SHOULD", "should");
    private static final Requirement MAY = new Requirement("r.may", "RFC 5040", "§5.4", "MAY", "may");
    private static final ErrorType INVALID_MSN = new ErrorType(1, 2, 3);
    private static final Reaction STRICT_TERMINATE = Reaction.terminate(INVALID_MSN, Reaction.Grade.STRICT,
            "RFC 5041 §7.2: Invalid MSN");
    private static final Reaction LENIENT_CLOSE = new Reaction(Reaction.Kind.CLOSE, 0, 0, 0, Reaction.Grade.LENIENT,
            "RFC 5044 §7.1.2: \"MUST close the TCP connection\"");

    private static ScenarioInfo scenario(Requirement level, Reaction... expected) {
        return new ScenarioInfo("t.scenario", "a scenario", List.of(level), Set.of(), Set.of("agent"),
                List.of(expected), expected.length > 0, "test", Map.of(), List.of());
    }

    private static Judge.Observed terminate(ErrorType t, Link.PeerClose close) {
        return new Judge.Observed(t, false, true, close, "Terminate " + t, false);
    }

    private static Judge.Observed nothing(Link.PeerClose close) {
        return new Judge.Observed(null, false, true, close, "no Terminate", false);
    }

    private static Judge.Facts facts(Judge.Observed o) {
        return new Judge.Facts(null, o, List.of(), List.of(), List.of(), List.of(), 3000);
    }

    private static Judge.Facts facts(Judge.Observed o, List<String> findings, List<String> formErrors,
                                     List<String> formWarnings) {
        return new Judge.Facts(null, o, findings, List.of(), formErrors, formWarnings, 3000);
    }

    @Test
    void aFailedCheckOfTheScenarioFailsItWhateverTheReaction() {
        Judge.Judgement j = Judge.judge(scenario(MUST, STRICT_TERMINATE), new Judge.Facts("the DUT received 3 octets",
                terminate(INVALID_MSN, Link.PeerClose.FIN), List.of(), List.of(), List.of(), List.of(), 3000));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.FAIL);
        assertThat(j.grade()).isNull();
        assertThat(j.notes()).first().isEqualTo("the DUT received 3 octets");
    }

    @Test
    void aPositiveScenarioWithNothingWrongPassesStrictly() {
        Judge.Judgement j = Judge.judge(scenario(MUST), facts(nothing(Link.PeerClose.OPEN)));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.PASS);
        assertThat(j.grade()).isEqualTo(Result.Grade.STRICT);
    }

    @Test
    void aPositiveScenarioFailsOnAnErrorInWhatTheDutSent() {
        Judge.Judgement j = Judge.judge(scenario(MUST), facts(nothing(Link.PeerClose.OPEN),
                List.of("mpa.pad: PAD not zero [RFC 5044 §4.1]"), List.of(), List.of()));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.FAIL);
        assertThat(j.notes()).anyMatch(n -> n.contains("broke a MUST in what it sent"));
    }

    @Test
    void theRfcsOwnTerminateFollowedByACloseIsStrict() {
        Judge.Judgement j = Judge.judge(scenario(MUST, STRICT_TERMINATE), facts(terminate(INVALID_MSN,
                Link.PeerClose.FIN)));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.PASS);
        assertThat(j.grade()).isEqualTo(Result.Grade.STRICT);
        assertThat(j.notes()).isEmpty();
    }

    @Test
    void aTerminateWithTheConnectionLeftOpenIsLenientAsTheTeardownIsAMay() {
        Judge.Judgement j = Judge.judge(scenario(MUST, STRICT_TERMINATE), facts(terminate(INVALID_MSN,
                Link.PeerClose.OPEN)));
        assertThat(j.grade()).isEqualTo(Result.Grade.LENIENT);
        assertThat(j.notes()).anyMatch(n -> n.contains("stayed open 3000 ms") && n.contains("RFC 5040 §6.2.1"));
    }

    @Test
    void aTerminateWhoseFormMissesAShouldIsNonStrict() {
        Judge.Judgement j = Judge.judge(scenario(MUST, STRICT_TERMINATE), facts(terminate(INVALID_MSN,
                        Link.PeerClose.FIN), List.of(), List.of(),
                List.of("rdmap.terminate.header-control: M/D/R bits disagree with Figure 10")));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.PASS);
        assertThat(j.grade()).isEqualTo(Result.Grade.NON_STRICT);
        assertThat(j.notes()).anyMatch(n -> n.contains("a SHOULD of its form missed"));
    }

    @Test
    void aTerminateWhoseFormBreaksAMustFails() {
        Judge.Judgement j = Judge.judge(scenario(MUST, STRICT_TERMINATE), facts(terminate(INVALID_MSN,
                Link.PeerClose.FIN), List.of(), List.of("rdmap.terminate.code: not in the RFC tables"), List.of()));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.FAIL);
        assertThat(j.notes()).anyMatch(n -> n.contains("its form breaks a MUST"));
    }

    @Test
    void theRightTerminateFollowedByMoreMessagesFails() {
        String after = "rdmap.terminate.after: Message sent after this side's Terminate [RFC 5040 §5.4]";
        Judge.Judgement j = Judge.judge(scenario(MUST, STRICT_TERMINATE), new Judge.Facts(null,
                terminate(INVALID_MSN, Link.PeerClose.OPEN), List.of(after), List.of(after), List.of(), List.of(),
                3000));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.FAIL);
        assertThat(j.notes()).anyMatch(n -> n.startsWith("the DUT went on after its reaction: rdmap.terminate.after"));
    }

    @Test
    void theRightReactionWithAnotherMustBrokenInTheExchangeIsLenient() {
        Judge.Judgement j = Judge.judge(scenario(MUST, STRICT_TERMINATE), facts(terminate(INVALID_MSN,
                Link.PeerClose.FIN), List.of("mpa.pad: PAD not zero [RFC 5044 §4.1]"), List.of(), List.of()));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.PASS);
        assertThat(j.grade()).isEqualTo(Result.Grade.LENIENT);
        assertThat(j.notes()).anyMatch(n -> n.contains("broke another MUST in the exchange"));
    }

    @Test
    void aLenientAlternativePassesLenientlyWithItsReason() {
        Judge.Judgement j = Judge.judge(scenario(MUST, STRICT_TERMINATE, LENIENT_CLOSE), facts(nothing(
                Link.PeerClose.FIN)));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.PASS);
        assertThat(j.grade()).isEqualTo(Result.Grade.LENIENT);
        assertThat(j.notes()).containsExactly("accepted: " + LENIENT_CLOSE.reason());
    }

    @Test
    void noAcceptedReactionToAMustFailsAndSaysWhatWasExpected() {
        Judge.Judgement j = Judge.judge(scenario(MUST, STRICT_TERMINATE), facts(nothing(Link.PeerClose.OPEN)));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.FAIL);
        assertThat(j.notes()).anyMatch(n -> n.startsWith("expected Terminate 1/2/3"));
    }

    @Test
    void aTerminateWithLayerAndETypeSwappedIsNamedAsABitfieldMistake() {
        Judge.Judgement j = Judge.judge(scenario(MUST, STRICT_TERMINATE), facts(terminate(new ErrorType(2, 1, 3),
                Link.PeerClose.FIN)));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.FAIL);
        assertThat(j.notes()).anyMatch(n -> n.contains("with Layer and EType swapped"));
    }

    @Test
    void aMissedShouldIsANonStrictPass() {
        Judge.Judgement j = Judge.judge(scenario(SHOULD, STRICT_TERMINATE), facts(nothing(Link.PeerClose.FIN)));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.PASS);
        assertThat(j.grade()).isEqualTo(Result.Grade.NON_STRICT);
        assertThat(j.notes()).anyMatch(n -> n.startsWith("a SHOULD missed"));
    }

    @Test
    void aMissedShouldStaysNonStrictWhateverElseTheDutBroke() {
        Judge.Judgement j = Judge.judge(scenario(SHOULD, STRICT_TERMINATE), facts(nothing(Link.PeerClose.FIN),
                List.of("ddp.reserved: reserved bits set"), List.of(), List.of()));
        assertThat(j.grade()).isEqualTo(Result.Grade.NON_STRICT);
    }

    @Test
    void aMayNotTakenIsInformational() {
        Judge.Judgement j = Judge.judge(scenario(MAY, STRICT_TERMINATE), facts(nothing(Link.PeerClose.OPEN)));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.PASS);
        assertThat(j.grade()).isEqualTo(Result.Grade.INFORMATIONAL);
    }

    @Test
    void aMustProvenOnlyInPartStillFailsAMiss() {
        // a MAY in requires and a MUST in partly: the scenario's reactions still bind the MUST it tests in part
        ScenarioInfo info = new ScenarioInfo("t.scenario", "a scenario", List.of(MAY), Set.of(), Set.of("agent"),
                List.of(STRICT_TERMINATE), true, "test", Map.of(MUST, "the other half"), List.of());
        assertThat(info.level()).isEqualTo("MUST");
        Judge.Judgement j = Judge.judge(info, facts(nothing(Link.PeerClose.OPEN)));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.FAIL);
    }

    @Test
    void eachReactionKindMatchesOnlyItsOwnBehaviour() {
        Reaction close = new Reaction(Reaction.Kind.CLOSE, 0, 0, 0, Reaction.Grade.STRICT, "r");
        Reaction silent = new Reaction(Reaction.Kind.SILENT_CLOSE, 0, 0, 0, Reaction.Grade.STRICT, "r");
        Reaction reject = new Reaction(Reaction.Kind.REJECT, 0, 0, 0, Reaction.Grade.STRICT, "r");
        Reaction goOn = new Reaction(Reaction.Kind.CONTINUE, 0, 0, 0, Reaction.Grade.STRICT, "r");
        Judge.Observed closed = nothing(Link.PeerClose.RST);
        Judge.Observed quiet = new Judge.Observed(null, false, false, Link.PeerClose.FIN, "no MPA Reply", true);
        Judge.Observed rejected = new Judge.Observed(null, true, true, Link.PeerClose.FIN, "MPA Reply with R = 1",
                false);
        Judge.Observed open = nothing(Link.PeerClose.OPEN);
        Judge.Observed terminated = terminate(INVALID_MSN, Link.PeerClose.FIN);

        assertThat(Judge.matches(close, closed)).isTrue();
        assertThat(Judge.matches(close, terminated)).as("a Terminate is not a bare close").isFalse();
        assertThat(Judge.matches(close, rejected)).as("a reject is not a bare close").isFalse();
        assertThat(Judge.matches(silent, quiet)).isTrue();
        assertThat(Judge.matches(silent, closed)).as("something was sent before the close").isFalse();
        assertThat(Judge.matches(reject, rejected)).isTrue();
        assertThat(Judge.matches(reject, closed)).isFalse();
        assertThat(Judge.matches(goOn, open)).isTrue();
        assertThat(Judge.matches(goOn, closed)).isFalse();
        assertThat(Judge.matches(STRICT_TERMINATE, terminated)).isTrue();
        assertThat(Judge.matches(STRICT_TERMINATE, terminate(new ErrorType(1, 2, 2), Link.PeerClose.FIN))).isFalse();
    }

    // ---- the rpcrdma profile's answers (RFC 8166)

    private static final Reaction ERR_CHUNK = Reaction.rpc(RpcReaction.ERR_CHUNK, Reaction.Grade.STRICT,
            "RFC 8166 §4.5.2: ERR_CHUNK");

    @Test
    void anAcceptedRpcOverRdmaAnswerPassesStrictly() {
        Judge.Judgement j = Judge.judge(scenario(MUST, ERR_CHUNK, LENIENT_CLOSE),
                facts(nothing(Link.PeerClose.OPEN).withRpc(RpcReaction.ERR_CHUNK)));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.PASS);
        assertThat(j.grade()).isEqualTo(Result.Grade.STRICT);
    }

    @Test
    void anotherRpcOverRdmaAnswerThanTheAcceptedOnesFails() {
        Judge.Judgement j = Judge.judge(scenario(MUST, ERR_CHUNK),
                facts(nothing(Link.PeerClose.OPEN).withRpc(RpcReaction.DISCARD)));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.FAIL);
        assertThat(j.notes()).anyMatch(n -> n.contains("RDMA_ERROR ERR_CHUNK"));
    }

    @Test
    void anAcceptedRpcOverRdmaAnswerWhoseExchangeBreaksAnRfc8166MustFails() {
        Judge.Judgement j = Judge.judge(scenario(MUST, ERR_CHUNK), facts(nothing(Link.PeerClose.OPEN)
                .withRpc(RpcReaction.ERR_CHUNK), List.of("rpcrdma.credits-zero: grants 0 credits [RFC 8166 §3.3.1]"),
                List.of(), List.of()));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.FAIL);
        assertThat(j.notes()).anyMatch(n -> n.contains("breaks a MUST of RFC 8166"));
    }

    @Test
    void anAcceptedRpcOverRdmaAnswerWithAnotherLayersFindingIsLenient() {
        Judge.Judgement j = Judge.judge(scenario(MUST, ERR_CHUNK), facts(nothing(Link.PeerClose.OPEN)
                .withRpc(RpcReaction.ERR_CHUNK), List.of("mpa.pad: PAD not zero [RFC 5044 §4.1]"), List.of(),
                List.of()));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.PASS);
        assertThat(j.grade()).isEqualTo(Result.Grade.LENIENT);
    }

    @Test
    void aCloseIsNoRpcOverRdmaAnswer() {
        Judge.Judgement j = Judge.judge(scenario(MUST, ERR_CHUNK), facts(nothing(Link.PeerClose.FIN)));
        assertThat(j.verdict()).isEqualTo(Result.Verdict.FAIL);
    }
}
