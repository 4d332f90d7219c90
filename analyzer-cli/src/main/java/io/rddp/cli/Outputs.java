package io.rddp.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where a command writes its output: a file, or standard output, which closing must leave open. */
final class Outputs {
    private Outputs() {
    }

    /** Why OUT cannot be written, in words ("OUT: cannot write: no such directory /x"). */
    static String cannotWrite(Path output, IOException e) {
        String what = output == null ? "standard output" : output.toString();
        String why;
        if (e instanceof java.nio.file.NoSuchFileException) {
            Path dir = output == null ? null : output.toAbsolutePath().getParent();
            why = "no such directory" + (dir != null ? " " + dir : "");
        } else if (e instanceof java.nio.file.AccessDeniedException) {
            why = "permission denied";
        } else if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            why = f.getReason();
        } else if (output != null && Files.isDirectory(output)) {
            why = "is a directory";
        } else {
            why = e.getMessage() == null ? e.toString() : e.getMessage();
        }
        return what + ": cannot write: " + why;
    }

    /** {@link #open}, or null when OUT cannot be written, having said why on {@code err}. */
    static OutputStream openOrSay(Path output, java.io.PrintWriter err) {
        try {
            return open(output);
        } catch (IOException e) {
            err.println("rddp: " + cannotWrite(output, e));
            return null;
        }
    }

    /** The reader of our standard output went away (`| head`): not an error worth a message. */
    static boolean brokenPipe(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (t instanceof IOException && m != null && (m.contains("Broken pipe") || m.contains("EPIPE"))) return true;
        }
        return false;
    }

    /**
     * A capture reader's message without the file name it starts with (the library names the file in its
     * exceptions, "FILE: magic ..."; "&lt;stdin&gt;: ..." for '-'), for callers that name the file themselves.
     */
    static String withoutFile(String file, String message) {
        if (message == null) return null;
        for (String name : file.equals("-") ? new String[]{"<stdin>", file} : new String[]{file}) {
            if (message.startsWith(name + ": ")) return message.substring(name.length() + 2);
        }
        return message;
    }

    /** "FILE: message", the file named once whether or not the message already names it. */
    static String aboutFile(String file, String message) {
        return file + ": " + withoutFile(file, message);
    }

    /** What to say of a capture without one iWARP PDU. */
    static String nothingToDecode(long frames, int tcpConnections, java.util.List<String> linkTypes) {
        StringBuilder sb = new StringBuilder("no iWARP traffic: ");
        sb.append(frames).append(frames == 1 ? " frame, " : " frames, ");
        if (tcpConnections >= 0) sb.append(tcpConnections).append(tcpConnections == 1 ? " TCP connection, " : " TCP connections, ");
        sb.append("no MPA Request, Reply or FPDU");
        if (!linkTypes.isEmpty()) sb.append("; ").append(String.join("; ", linkTypes));
        return sb.toString();
    }

    static OutputStream open(Path output) throws IOException {
        if (output != null) return new BufferedOutputStream(Files.newOutputStream(output), 1 << 16);
        // FileDescriptor.out directly (no PrintStream locking); close() only flushes, so fd 1 stays usable
        return new FilterOutputStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16)) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                flush();
            }
        };
    }
}
