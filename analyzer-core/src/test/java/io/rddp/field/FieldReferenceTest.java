package io.rddp.field;

import io.rddp.testing.RepoPaths;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/fields.md is the field reference, generated from the registry and never stale. */
class FieldReferenceTest {

    static Path doc() {
        return RepoPaths.doc("fields.md");
    }

    @Test
    void docsFieldsMdIsWhatTheRegistryGenerates() throws IOException {
        String generated = FieldReference.markdown();
        if (Boolean.getBoolean("rddp.updateDocs")) Files.writeString(doc(), generated, StandardCharsets.UTF_8);
        assertThat(doc()).as("docs/fields.md; rewrite it with -Drddp.updateDocs=true").exists();
        assertThat(Files.readString(doc(), StandardCharsets.UTF_8))
                .as("docs/fields.md is stale: mvn -pl analyzer-core test -Dtest=FieldReferenceTest"
                        + " -Drddp.updateDocs=true")
                .isEqualTo(generated);
    }

    @Test
    void everyFilterNameHasARowWithItsLabelTypeAndRfc() {
        String md = FieldReference.markdown();
        for (FilterName n : FieldRegistry.filterNames()) {
            if (n.isLayer()) {
                assertThat(md).contains("## `" + n.name() + "`: " + n.layer().description());
            } else {
                Field f = n.field();
                assertThat(md).contains("`" + n.name() + "`");
                assertThat(md).contains(" | " + f.label().replace("|", "\\|") + " | " + f.type().text() + " | "
                        + f.base().text() + " | " + f.rfc() + " | ");
            }
        }
    }
}
