package io.rddp.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rddp.capture.CaptureException;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.Frame;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Any bytes opened as a capture (pcap, pcapng, gzip of either): the readers either return frames or throw
 * {@link CaptureException}, the only bad-input error {@link CaptureReader#next} documents, and the memory-mapped file
 * reader and the stream reader agree on every frame of an uncompressed file.
 */
class CaptureReaderFuzzTest {
    private static final Path FILE;

    static {
        try {
            FILE = Files.createTempFile("rddp-fuzz-capture", ".bin");
            FILE.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void readEveryFrame(byte[] data) throws IOException {
        Result stream = read(() -> CaptureReaders.open(new ByteArrayInputStream(data), "fuzz"), data.length);
        Files.write(FILE, data);
        Result mapped = read(() -> CaptureReaders.open(FILE), data.length);
        boolean gzip = data.length >= 2 && (data[0] & 0xFF) == 0x1F && (data[1] & 0xFF) == 0x8B;
        if (!gzip) {
            // the same bytes through both byte sources: the same frames, and failure at the same spot
            assertThat(mapped.frames).isEqualTo(stream.frames);
            assertThat(mapped.error == null).isEqualTo(stream.error == null);
            if (mapped.error != null) assertThat(mapped.error.fileOffset()).isEqualTo(stream.error.fileOffset());
        }
    }

    private record Result(List<String> frames, CaptureException error) {
    }

    private interface Opener {
        CaptureReader open() throws IOException;
    }

    private static Result read(Opener opener, long size) throws IOException {
        List<String> frames = new ArrayList<>();
        Frame f = new Frame();
        CaptureException error = null;
        long last = 0;
        try (CaptureReader reader = opener.open()) {
            while (reader.next(f)) {
                ByteBuffer d = f.data;
                assertThat(d.position()).isZero();
                // numbers rise, and may skip: a pcapng block that is no packet (a systemd journal entry) uses one up
                assertThat(f.number).isGreaterThan(last);
                last = f.number;
                CRC32 crc = new CRC32();
                crc.update(d.duplicate());
                frames.add(f.number + ":" + f.linkType + ":" + f.timestampNanos + ":" + f.originalLength + ":"
                        + f.fileOffset + ":" + f.interfaceId + ":" + d.remaining() + ":" + crc.getValue() + ":"
                        + f.comment);
                assertThat(reader.bytesRead()).isBetween(0L, size);
            }
        } catch (CaptureException e) {
            error = e;
        }
        return new Result(frames, error);
    }
}
