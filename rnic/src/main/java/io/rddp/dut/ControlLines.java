package io.rddp.dut;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;

/** The control protocol's framing: one JSON object per line, read with a deadline and a length cap on both sides. */
public final class ControlLines {
    private ControlLines() {
    }

    /**
     * One line of {@code in}, null at the end of the stream. The whole line must come by {@code deadlineNanos}, not
     * each read: a DUT that trickles a byte a second times out as one that says nothing; and it has at most
     * {@code max} characters.
     */
    public static String readLine(BufferedReader in, Socket socket, long deadlineNanos, int max) throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (!in.ready()) {
                long left = (deadlineNanos - System.nanoTime()) / 1_000_000L;
                if (left <= 0) throw new SocketTimeoutException("the line did not end in time");
                socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
            }
            int c = in.read();
            if (c < 0) return sb.length() == 0 ? null : sb.toString();
            if (c == '\n') return sb.length() > 0 && sb.charAt(sb.length() - 1) == '\r'
                    ? sb.substring(0, sb.length() - 1) : sb.toString();
            if (sb.length() >= max) throw new IOException("a response longer than " + max + " characters");
            sb.append((char) c);
        }
    }
}
