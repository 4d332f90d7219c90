package io.rddp.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The launchers' class-data sharing archive is made from this run: it must run the commands, and leave nothing. */
class CdsTrainingTest {

    @Test
    void theTrainingRunsGenerateAnalyzeAndDecodeAndDeletesItsFiles() throws IOException {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        long before = trainingDirs(tmp);
        assertThat(CdsTraining.train()).as("commands that failed").isZero();
        assertThat(trainingDirs(tmp)).as("training directories left in " + tmp).isEqualTo(before);
    }

    private static long trainingDirs(Path tmp) throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.filter(p -> p.getFileName().toString().startsWith("rddp-cds-training")).count();
        }
    }
}
