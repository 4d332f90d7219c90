package io.rddp.sink;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StagFileTest {

    @TempDir
    Path tmp;

    private List<StagRegistration> readText(String json) throws IOException {
        Path f = tmp.resolve("stags.json");
        Files.writeString(f, json);
        return StagFile.read(f);
    }

    @Test
    void whatWriteGivesReadsBackAsTheSameRegistrations() throws IOException {
        List<StagRegistration> regs = List.of(
                StagRegistration.of(0x1234_5600L, 0x7f00_0000_1000L, 64, Set.of(StagRegistration.Access.WRITE)),
                new StagRegistration(0xFFFF_FFFFL, 0xFFFF_FFFF_FFFF_FFF0L, -1L, Set.of(StagRegistration.Access.READ,
                        StagRegistration.Access.ATOMIC), Side.SERVER, Set.of(7, 0), 3, 90),
                new StagRegistration(1, 0, 0, Set.of(), Side.CLIENT, Set.of(), 0, 1));
        String text = StagFile.write(regs);
        assertThat(readText(text)).containsExactlyElementsOf(regs);
        assertThat(text).startsWith("[{\"stag\": \"0x12345600\", \"baseTo\": \"0x7f0000001000\", \"length\": 64,"
                + " \"access\": [\"write\"]}");
    }

    @Test
    void theDocumentedExampleReadsWithItsDefaults() throws IOException {
        assertThat(readText("[{\"stag\": \"0x5fb74500\", \"baseTo\": \"0x5555a6e24550\", \"length\": 64, \"access\":"
                + " [\"read\", \"write\"], \"owner\": \"client\", \"streams\": [0], \"validFrom\": 1, \"validUntil\": 90},"
                + " {\"stag\": 17}]")).containsExactly(
                new StagRegistration(0x5fb74500L, 0x5555a6e24550L, 64, Set.of(StagRegistration.Access.READ,
                        StagRegistration.Access.WRITE), Side.CLIENT, Set.of(0), 1, 90),
                new StagRegistration(17, 0, Long.MAX_VALUE, Set.of(StagRegistration.Access.values()), null, Set.of(),
                        0, Long.MAX_VALUE));
    }

    @Test
    void badFilesSayWhatIsWrongAndWhere() {
        assertThatThrownBy(() -> readText("{\"stag\": 1}")).isInstanceOf(IOException.class)
                .hasMessage("expected a JSON array of STag registrations");
        assertThatThrownBy(() -> readText("[{\"stag\": ")).hasMessageStartingWith("not valid JSON: ");
        assertThatThrownBy(() -> readText("[{\"stag\": 1}, {\"length\": 4}]"))
                .hasMessage("registration 1: \"stag\" is missing");
        assertThatThrownBy(() -> readText("[{\"stag\": 1, \"owner\": \"nobody\"}]"))
                .hasMessage("registration 0: \"owner\" must be client or server (got \"nobody\")");
        assertThatThrownBy(() -> readText("[{\"stag\": 1, \"access\": [\"execute\"]}]"))
                .hasMessage("registration 0: \"access\" must be read, write or atomic (got \"execute\")");
        assertThatThrownBy(() -> readText("[{\"stag\": \"0xZZ\"}]"))
                .hasMessage("registration 0: \"stag\" is not a number: 0xZZ");
        assertThatThrownBy(() -> readText("[3]")).hasMessage("registration 0: expected a JSON object");
    }
}
