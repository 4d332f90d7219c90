package io.rddp.cli;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.Frame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GenerateCommandTest {

    @TempDir
    Path tmp;

    @Test
    void writesTheFormatTheOutputNameAsksFor() throws Exception {
        for (String name : new String[]{"a.pcap", "b.pcapng", "c.pcap.gz", "d.pcapng.gz"}) {
            Path out = tmp.resolve(name);
            assertThat(Main.run("generate", "rping", "--count", "2", "-o", out.toString())).isZero();
            try (CaptureReader r = CaptureReaders.open(out)) {
                Frame f = new Frame();
                int frames = 0;
                while (r.next(f)) frames++;
                assertThat(frames).as(name).isGreaterThan(14);
                assertThat(r.format()).as(name).startsWith(name.contains("pcapng") ? "pcapng" : "pcap")
                        .matches(name.endsWith(".gz") ? ".*gzip.*" : "[a-z]+");
            }
        }
    }

    @Test
    void unknownScenarioOrMissingOutputIsExitTwo() {
        assertThat(Main.run("generate", "no-such-thing", "-o", tmp.resolve("x.pcap").toString())).isEqualTo(2);
        assertThat(Main.run("generate", "rping")).isEqualTo(2);
        assertThat(Files.exists(tmp.resolve("x.pcap"))).isFalse();
    }

    @Test
    void sizesTakeBinaryAndDecimalUnits() {
        GenerateCommand.SizeConverter c = new GenerateCommand.SizeConverter();
        assertThat(c.convert("100MiB")).isEqualTo(100L << 20);
        assertThat(c.convert("10GB")).isEqualTo(10_000_000_000L);
        assertThat(c.convert("4096")).isEqualTo(4096L);
        assertThat(c.convert("2k")).isEqualTo(2048L);
        assertThatThrownBy(() -> c.convert("ten")).isInstanceOf(CommandLine.TypeConversionException.class);
    }
}
