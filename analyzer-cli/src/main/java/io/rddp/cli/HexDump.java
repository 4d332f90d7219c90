package io.rddp.cli;

import io.rddp.Plural;
import java.nio.ByteBuffer;

/** {@code -x}: tshark's hex dump, 16 octets a line: offset, hex, printable ASCII. */
final class HexDump {
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private HexDump() {
    }

    static void append(String title, ByteBuffer bytes, StringBuilder sb) {
        ByteBuffer b = bytes.duplicate();
        sb.append("  ").append(title).append(" (").append(Plural.of(b.remaining(), "octet")).append(")\n");
        int base = b.position(), n = b.remaining();
        for (int line = 0; line < n; line += 16) {
            sb.append("  ");
            String off = Integer.toHexString(line);
            for (int i = off.length(); i < 4; i++) sb.append('0');
            sb.append(off).append("  ");
            for (int i = 0; i < 16; i++) {
                if (line + i < n) {
                    int v = b.get(base + line + i) & 0xff;
                    sb.append(DIGITS[v >> 4]).append(DIGITS[v & 15]).append(' ');
                } else {
                    sb.append("   ");
                }
                if (i == 7) sb.append(' ');
            }
            sb.append(' ');
            for (int i = 0; i < 16 && line + i < n; i++) {
                int v = b.get(base + line + i) & 0xff;
                sb.append(v >= 0x20 && v < 0x7f ? (char) v : '.');
            }
            sb.append('\n');
        }
    }
}
