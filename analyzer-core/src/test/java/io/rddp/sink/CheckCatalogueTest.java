package io.rddp.sink;

import io.rddp.testing.RepoPaths;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/checks.md is the audit of every check against its RFC, generated from the catalogue and never stale. */
class CheckCatalogueTest {

    static Path doc() {
        return RepoPaths.doc("checks.md");
    }

    @Test
    void docsChecksMdIsWhatTheCatalogueGenerates() throws IOException {
        String generated = CheckCatalogue.markdown();
        if (Boolean.getBoolean("rddp.updateDocs")) Files.writeString(doc(), generated, StandardCharsets.UTF_8);
        assertThat(doc()).as("docs/checks.md; rewrite it with -Drddp.updateDocs=true").exists();
        assertThat(Files.readString(doc(), StandardCharsets.UTF_8))
                .as("docs/checks.md is stale: mvn -pl analyzer-core test -Dtest=CheckCatalogueTest"
                        + " -Drddp.updateDocs=true")
                .isEqualTo(generated);
    }

    @Test
    void everyCheckHasItsRfcTextAndARowInTheDocument() {
        String md = CheckCatalogue.markdown();
        for (Check c : Check.values()) {
            assertThat(c.rfcText()).as(c.id()).isNotBlank();
            assertThat(md).contains("| `" + c.id() + "` | " + c.rfc() + " " + c.section() + " | ");
        }
    }

    @Test
    void everyCheckWeakerThanAnErrorSaysWhy() {
        // a MUST broken by the sender is an error; anything less needs its reason in the document
        for (Check c : Check.values()) {
            if (c.severity() != Severity.ERROR) {
                assertThat(CheckCatalogue.NOTES.get(c)).as("why %s is %s", c.id(), c.severity()).isNotBlank();
            }
        }
    }

    @Test
    void whatTheReceiverIgnoresIsAnErrorOfTheSenderThatOwesNoTerminate() {
        // RFC 5044 §4.1 PAD, RFC 5044 §7.1.1 Res, RFC 5041 §4.1 Rsvd, RFC 5040 §4.1 Rsv: MUST be zero on transmit,
        // not checked on receive
        for (Check c : Check.values()) {
            if (!c.receiverIgnores()) continue;
            assertThat(c.severity()).as(c.id()).isEqualTo(Severity.ERROR);
            assertThat(c.errorType()).as(c.id()).isNull();
        }
        assertThat(Check.MPA_PAD.receiverIgnores()).isTrue();
        assertThat(Check.DDP_VERSION.receiverIgnores()).isFalse();
    }
}
