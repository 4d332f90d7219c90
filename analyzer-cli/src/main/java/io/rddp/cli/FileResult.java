package io.rddp.cli;

import io.rddp.analyze.Analysis;

import java.util.List;
import java.util.Map;

/**
 * One input of {@code rddp analyze} as the reports show it: its analysis, or why there is none.
 *
 * @param file     the name as given
 * @param analysis the analysis, or null when the file could not be read at all
 * @param error    why it could not be read (analysis null), or null
 * @param closes   per stream index, how each side closed ("client FIN frame 12", "server RST frame 13") or that
 *                 it was still open when the capture ended
 * @param exit     the exit code this file alone gives
 * @param millis   how long reading and judging it took, or -1 when not measured
 */
record FileResult(String file, Analysis analysis, String error, Map<Integer, List<String>> closes, int exit,
                  long millis) {

    FileResult(String file, Analysis analysis, String error, Map<Integer, List<String>> closes, int exit) {
        this(file, analysis, error, closes, exit, -1);
    }

    /** This result with the time since {@code startNanos} ({@link System#nanoTime()}) as its duration. */
    FileResult took(long startNanos) {
        return new FileResult(file, analysis, error, closes, exit, (System.nanoTime() - startNanos) / 1_000_000);
    }

    /** The duration for a report, null when it was not measured. */
    Long time() {
        return millis < 0 ? null : millis;
    }

    /** "clean", "violations", "no-iwarp", "incomplete" (read up to damage), "unreadable". */
    String status() {
        if (analysis == null) return "unreadable";
        if (analysis.error() != null) return "incomplete";
        if (exit == Main.EXIT_NOTHING) return "no-iwarp";
        return exit == Main.EXIT_FINDINGS ? "violations" : "clean";
    }

    /** Why nothing was analysed (status no-iwarp), else null. */
    String nothing() {
        if (analysis == null || exit != Main.EXIT_NOTHING) return null;
        List<String> linkTypes = analysis.notices().stream().filter(NoticePrinter::isLinkType)
                .map(io.rddp.Notice::message).toList();
        return Outputs.nothingToDecode(analysis.frames(), -1, linkTypes);
    }
}
