package io.rddp.capture;

import io.rddp.testing.RepoPaths;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Finding the shared captures and the test resources, and reading frames into comparable values. */
final class TestCaptures {
    private TestCaptures() {
    }

    /** What a test compares of a frame; {@code md5} is of the captured bytes, as tshark's frame.md5_hash. */
    record Got(long number, long timestampNanos, int originalLength, int capturedLength, String md5, int linkType,
               int interfaceId, long fileOffset, String comment) {
        /** The fields tshark's golden files hold. */
        String golden() {
            return number + "," + timestampNanos + "," + originalLength + "," + capturedLength + "," + md5;
        }
    }

    /** Frames read before the reader stopped, and the exception that stopped it (null at a clean end). */
    record Outcome(List<Got> frames, CaptureException failure) {
    }

    static Path repoRoot() {
        return RepoPaths.root();
    }

    /**
     * The real captures: the copies bundled in the repo's pcaps/ (siw/, public/), else ../shared/pcaps of the repo
     * root or of any directory above it (a git worktree may sit deeper than the main checkout). Skips the test when
     * there are none.
     */
    static Path sharedPcaps() {
        Path bundled = repoRoot().resolve("pcaps");
        if (Files.isDirectory(bundled.resolve("siw")) && Files.isDirectory(bundled.resolve("public"))) return bundled;
        for (Path d = repoRoot(); d != null; d = d.getParent()) {
            Path p = d.resolve("shared").resolve("pcaps");
            if (Files.isDirectory(p)) return p;
            p = d.resolveSibling("shared").resolve("pcaps");
            if (Files.isDirectory(p)) return p;
        }
        assumeTrue(false, "no shared/pcaps directory above " + repoRoot() + ": real-capture tests skipped");
        return null;
    }

    static Path resource(String name) {
        try {
            return Paths.get(TestCaptures.class.getResource(name).toURI());
        } catch (Exception e) {
            throw new IllegalStateException("test resource " + name + " missing", e);
        }
    }

    /** Golden lines "number,epoch seconds with 9 decimals,len,caplen,md5" written from tshark, as "number,nanos,..". */
    static List<String> golden(String name) {
        try (InputStream in = TestCaptures.class.getResourceAsStream("golden/" + name + ".csv")) {
            if (in == null) throw new IllegalStateException("golden/" + name + ".csv missing");
            List<String> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank()) continue;
                String[] f = line.split(",");
                out.add(f[0] + "," + nanos(f[1]) + "," + f[2] + "," + f[3] + "," + f[4]);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static long nanos(String epoch) {
        String[] p = epoch.split("\\.");
        String frac = (p.length > 1 ? p[1] : "") + "000000000";
        return Long.parseLong(p[0]) * 1_000_000_000L + Long.parseLong(frac.substring(0, 9));
    }

    static Got got(Frame f) {
        return new Got(f.number, f.timestampNanos, f.originalLength, f.capturedLength(), md5(f.data), f.linkType,
                f.interfaceId, f.fileOffset, f.comment);
    }

    static String md5(ByteBuffer data) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            md.update(data.duplicate());
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static Outcome readAll(CaptureReader reader) throws IOException {
        List<Got> frames = new ArrayList<>();
        Frame f = new Frame();
        try (reader) {
            while (reader.next(f)) {
                frames.add(got(f));
            }
        } catch (CaptureException e) {
            return new Outcome(frames, e);
        }
        return new Outcome(frames, null);
    }

    static List<Got> frames(CaptureReader reader) throws IOException {
        Outcome o = readAll(reader);
        if (o.failure() != null) throw o.failure();
        return o.frames();
    }

    static List<Got> frames(Path path) throws IOException {
        return frames(CaptureReaders.open(path));
    }

    static List<String> goldenOf(List<Got> frames) {
        return frames.stream().map(Got::golden).toList();
    }

    static Path write(Path dir, String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }
}
