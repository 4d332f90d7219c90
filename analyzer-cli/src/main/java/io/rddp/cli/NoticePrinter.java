package io.rddp.cli;

import io.rddp.Notice;

import java.io.PrintWriter;
import java.util.EnumMap;
import java.util.Map;

/** Prints decode notices on stderr as they come, and a count per severity at the end. */
final class NoticePrinter {
    private final PrintWriter err;
    private final boolean quiet;
    private final Map<Notice.Severity, Long> counts = new EnumMap<>(Notice.Severity.class);

    NoticePrinter(PrintWriter err, boolean quiet) {
        this.err = err;
        this.quiet = quiet;
    }

    /** The "link type N is not decoded" notices seen: why a capture may show nothing. */
    java.util.List<String> linkTypes() {
        return linkTypes;
    }

    private final java.util.List<String> linkTypes = new java.util.ArrayList<>();

    void print(Notice notice) {
        counts.merge(notice.severity(), 1L, Long::sum);
        if (isLinkType(notice) && linkTypes.size() < 8) linkTypes.add(notice.message());
        if (!quiet) err.println("rddp: " + notice);
    }

    void summary() {
        if (counts.isEmpty() || quiet) {
            err.flush();
            return;
        }
        StringBuilder sb = new StringBuilder("rddp: notices:");
        counts.forEach((sev, n) -> sb.append(' ').append(n).append(' ').append(sev.name().toLowerCase()));
        err.println(sb);
        err.flush();
    }

    /** The TCP layer's notice of an undecoded link type (PacketDecoder). */
    static boolean isLinkType(Notice n) {
        return n.layer().equals("tcp") && n.message().startsWith("link type ");
    }
}
