package io.rddp.dut;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;

/**
 * The shared secret of the DUT control channel (docs/dut-control.md, Authentication) and its challenge-response. A token
 * file holds the secret as hex (32 random octets when this class makes it), readable by its owner only. The secret
 * never crosses the wire: each side proves it knows it with HMAC-SHA256(secret, server nonce || client nonce ||
 * label), the label telling the client's proof from the server's.
 */
public final class ControlToken {

    /** Octets of a token this class creates, and of each nonce. */
    public static final int OCTETS = 32;
    /** The shortest secret a token file may hold. */
    public static final int MIN_OCTETS = 16;
    public static final String CLIENT_LABEL = "rddp-dut-control-v2 client";
    public static final String SERVER_LABEL = "rddp-dut-control-v2 server";

    private static final SecureRandom RANDOM = new SecureRandom();

    private ControlToken() {
    }

    /** Random octets (nonces, new tokens). */
    public static byte[] random(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    /**
     * The secret of an existing token file.
     *
     * @throws IOException missing, readable by group or others, or not hex of at least {@value #MIN_OCTETS} octets
     */
    public static byte[] read(Path file) throws IOException {
        String text;
        try {
            checkPrivate(file);
            if (Files.size(file) > 4096) throw new IOException(file + " is not a token file (over 4 KiB)");
            text = Files.readString(file, StandardCharsets.US_ASCII).strip();
        } catch (NoSuchFileException e) {
            throw new IOException("token file " + file + " does not exist");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IOException("token file " + file + " must hold hex digits only");
        }
        byte[] secret;
        try {
            secret = HexFormat.of().parseHex(text);
        } catch (IllegalArgumentException e) {
            throw new IOException("token file " + file + " must hold an even number of hex digits (and nothing"
                    + " else)");
        }
        if (secret.length < MIN_OCTETS) {
            throw new IOException("token file " + file + " holds " + secret.length + " octets; at least "
                    + MIN_OCTETS + " (" + 2 * MIN_OCTETS + " hex digits) are needed");
        }
        return secret;
    }

    /**
     * The secret of {@code file}, made first when it does not exist: {@value #OCTETS} random octets as hex, the file
     * created with mode 0600 (never readable by others, not even for a moment).
     */
    public static byte[] readOrCreate(Path file) throws IOException {
        if (!Files.exists(file)) {
            byte[] secret = random(OCTETS);
            byte[] text = (HexFormat.of().formatHex(secret) + "\n").getBytes(StandardCharsets.US_ASCII);
            try {
                boolean posix = Files.getFileStore(file.toAbsolutePath().getParent())
                        .supportsFileAttributeView(PosixFileAttributeView.class);
                if (posix) {
                    Files.createFile(file, PosixFilePermissions.asFileAttribute(
                            Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE)));
                } else {
                    Files.createFile(file);
                }
                Files.write(file, text, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
            } catch (FileAlreadyExistsException e) {
                // made by someone else meanwhile: theirs is read below
            }
        }
        return read(file);
    }

    /** Refuses a token file that group or others can read or write. */
    static void checkPrivate(Path file) throws IOException {
        Set<PosixFilePermission> p;
        try {
            p = Files.getPosixFilePermissions(file);
        } catch (UnsupportedOperationException e) {
            return; // not a POSIX file system: nothing to check
        }
        for (PosixFilePermission bad : Set.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE)) {
            if (p.contains(bad)) {
                throw new IOException("token file " + file + " is readable or writable by group or others ("
                        + PosixFilePermissions.toString(p) + "): chmod 600 " + file);
            }
        }
    }

    /** HMAC-SHA256(secret, serverNonce || clientNonce || label). */
    public static byte[] proof(byte[] secret, byte[] serverNonce, byte[] clientNonce, String label) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update(serverNonce);
            mac.update(clientNonce);
            mac.update(label.getBytes(StandardCharsets.US_ASCII));
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this Java", e);
        }
    }

    /** Whether {@code got} is {@code proof(...)}, compared in constant time. */
    public static boolean verify(byte[] secret, byte[] serverNonce, byte[] clientNonce, String label, byte[] got) {
        return got != null && MessageDigest.isEqual(proof(secret, serverNonce, clientNonce, label), got);
    }
}
