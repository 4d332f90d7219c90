package io.rddp.conformance;

import io.rddp.conformance.scenarios.RandomUlpduScenario;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The strict loader: the bundled catalogue passes it, and an unknown step, an unknown or misspelled key (at any
 * depth) or a value of the wrong type fails the load with the file, the line, the scenario id and what was expected.
 */
class StrictCatalogTest {

    private static final String REQ = "rfc5041.7.1.tagged-validate-to-plus-len";
    private static final Map<String, Requirement> REQS = Map.of(REQ, new Requirement(REQ, "RFC 5041", "§7.1",
            "MUST", "..."));

    /** A scenario file of one scenario whose step (line 5) is {@code step}. */
    private static String file(String step) {
        return """
                # a scenario file
                - id: ddp.tagged.past-end
                  requires: [%s]
                  steps:
                    - %s
                  expect:
                    - terminate: 1/1/1
                      reason: "RFC 5041 §7.2: Base or bounds violation"
                """.formatted(REQ, step);
    }

    private static List<Scenario> load(String text) {
        return Catalog.scenarios("ddp.yaml", text, REQS);
    }

    @Test
    void everyBundledScenarioFileLoadsUnderTheStrictLanguage() {
        assertThat(Catalog.load().scenarios()).hasSize(301);
    }

    @Test
    void aCorrectScenarioLoads() {
        assertThat(load(file("send: {opcode: write, to: \"dut.end-16\", length: 32}"))).hasSize(1);
    }

    @Test
    void anUnknownStepFailsWithFileAndLine() {
        assertThatThrownBy(() -> load(file("sned: {opcode: write}")))
                .hasMessageContaining("ddp.yaml:5: ddp.tagged.past-end: unknown step \"sned\" (known: send, ");
    }

    @Test
    void anUnknownKeyOfAStepFailsWithFileAndLine() {
        assertThatThrownBy(() -> load(file("send: {opcode: write, to: \"dut.end-16\", lenght: 32}")))
                .hasMessageContaining("ddp.yaml:5: ddp.tagged.past-end: step \"send\": unknown key \"lenght\""
                        + " (known: opcode, count, length, data, ");
    }

    @Test
    void aMisspelledKeyOfANestedObjectFailsWithFileAndLine() {
        assertThatThrownBy(() -> load(file("""
                send:
                        opcode: write
                        faults:
                          crcc: wrong""")))
                .hasMessageContaining("ddp.yaml:8: ddp.tagged.past-end: step \"send\": faults: unknown key \"crcc\""
                        + " (known: crc, pad, marker-delta, omit-markers)");
    }

    @Test
    void aMisspelledKeyOfANestedStepFailsWithFileAndLine() {
        assertThatThrownBy(() -> load(file("""
                agent-only:
                        - check-mem: {offest: 0, pattern: 16}""")))
                .hasMessageContaining("ddp.yaml:6: ddp.tagged.past-end: step \"check-mem\": unknown key \"offest\"");
    }

    @Test
    void aValueOfTheWrongTypeFailsWithFileAndLine() {
        assertThatThrownBy(() -> load(file("check-mem: {offset: true, pattern: 16}")))
                .hasMessageContaining("ddp.yaml:5: ddp.tagged.past-end: step \"check-mem\": offset: expected a number,"
                        + " 0x hex or an expression");
        assertThatThrownBy(() -> load(file("send: {opcode: writ}")))
                .hasMessageContaining("ddp.yaml:5: ddp.tagged.past-end: step \"send\": opcode: expected one of send, ");
        assertThatThrownBy(() -> load(file("send: {opcode: send, count: \"2\"}")))
                .hasMessageContaining("step \"send\": count: expected an integer, got \"2\"");
        assertThatThrownBy(() -> load(file("wait: soon")))
                .hasMessageContaining("ddp.yaml:5: ddp.tagged.past-end: step \"wait\": expected an integer");
    }

    @Test
    void anExpressionNamingNoBufferOfTheScenarioFails() {
        assertThatThrownBy(() -> load(file("send: {opcode: write, stag: \"other.stag\", length: 8}")))
                .hasMessageContaining("ddp.yaml:5: ddp.tagged.past-end: step \"send\": stag: unknown term"
                        + " \"other.stag\"");
        assertThatThrownBy(() -> load(file("send: {opcode: write, to: \"dut.ned\", length: 8}")))
                .hasMessageContaining("stag: unknown field \"ned\" of buffer dut".replace("stag", "to"));
    }

    @Test
    void keysThatExcludeEachOtherFail() {
        assertThatThrownBy(() -> load(file("check-mem: {pattern: 16, data: \"00\"}")))
                .hasMessageContaining("ddp.yaml:5: ddp.tagged.past-end: step \"check-mem\": takes one of data,"
                        + " pattern, u64, canary, not data and pattern");
    }

    @Test
    void anUnknownTopLevelOrSetupKeyFailsWithItsLine() {
        String text = file("fin: {}").replace("  steps:", "  setup: {recieves: 2}\n  stesp: []\n  steps:");
        assertThatThrownBy(() -> load(text))
                .hasMessageContaining("ddp.yaml:4: ddp.tagged.past-end: setup: unknown key \"recieves\" (known:"
                        + " receives,")
                .hasMessageContaining("ddp.yaml:5: ddp.tagged.past-end: unknown key \"stesp\" (known: id, title,");
    }

    @Test
    void setupKeysOfTheOtherSideFail() {
        assertThatThrownBy(() -> load(file("fin: {}").replace("  steps:", "  setup: {connect: {ird: 1}}\n  steps:")))
                .hasMessageContaining("ddp.yaml:4: ddp.tagged.past-end: setup: connect: only with dut-active: true");
        assertThatThrownBy(() -> load(file("fin: {}").replace("  steps:",
                "  setup: {dut-active: true, reject: true}\n  steps:")))
                .hasMessageContaining("ddp.yaml:4: ddp.tagged.past-end: setup: reject: only when the DUT is passive");
    }

    @Test
    void theControlProtocolRequestOfADutStepHasTheKeysOfItsOp() {
        assertThatThrownBy(() -> load(file("dut: {op: post_recv, mr: dut.mr, lenght: 8}")))
                .hasMessageContaining("step \"dut\": unknown key \"lenght\" (known: op, qp, repeat, refusal-ok,"
                        + " length, count, mr, offset)");
        assertThatThrownBy(() -> load(file("dut: {op: post_rcv}")))
                .hasMessageContaining("step \"dut\": op: expected one of ");
    }

    @Test
    void aKeyGivenTwiceFailsWithItsLine() {
        assertThatThrownBy(() -> load(file("fin: {}").replace("  steps:", "  title: a\n  title: b\n  steps:")))
                .hasMessageContaining("ddp.yaml:5: Duplicate field 'title'");
    }

    @Test
    void catchesIsAListOfStrings() {
        assertThat(load(file("fin: {}").replace("  steps:", "  catches: [siw-bug-1]\n  steps:"))).hasSize(1);
        assertThatThrownBy(() -> load(file("fin: {}").replace("  steps:", "  catches: siw-bug-1\n  steps:")))
                .hasMessageContaining("ddp.yaml:4: ddp.tagged.past-end: catches: expected a list of a string");
    }

    @Test
    void aJavaScenarioTakesTheKeysItsClassDeclaresOnly() {
        String java = """
                - id: robustness.random-ulpdu
                  requires: [%s]
                  java: %s
                  negative: true
                """.formatted(REQ, RandomUlpduScenario.class.getName());
        assertThat(load(java)).hasSize(1);
        assertThatThrownBy(() -> load(java + "  steps: []\n"))
                .hasMessageContaining("ddp.yaml:5: robustness.random-ulpdu: unknown key \"steps\" (known: id, title,"
                        + " requires, needs, profiles, expect, negative, partly, catches, alone, java)");
    }
}
