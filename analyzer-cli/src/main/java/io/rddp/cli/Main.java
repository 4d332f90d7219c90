package io.rddp.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Entry point of the {@code rddp} command. Exit codes: 0 success, 1 findings (analyze), 2 bad usage or unreadable
 * input, 3 nothing to analyse (no capture found, no iWARP traffic, only undecoded link types).
 */
@Command(name = "rddp",
        versionProvider = Main.Version.class,
        description = "Protocol analyzer and conformance suite for iWARP (TCP / MPA / DDP / RDMAP).",
        subcommands = {DecodeCommand.class, AnalyzeCommand.class, GenerateCommand.class, PeerCommand.class,
                ConformCommand.class, StatsCommand.class, GuiCommand.class, LabCommand.class, CompletionCommand.class,
                CommandLine.HelpCommand.class},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  success (analyze: no violation at or above --fail-on)",
                "  1  analyze: violations at or above --fail-on",
                "  2  bad usage, or a capture that could not be read (to its end)",
                "  3  nothing to analyse: no capture in the folders given, no iWARP",
                "     (MPA) traffic, or only link types rddp does not decode"})
public final class Main implements java.util.concurrent.Callable<Integer> {

    public static final int EXIT_OK = 0;
    public static final int EXIT_FINDINGS = 1;
    public static final int EXIT_BAD_INPUT = 2;
    /** Nothing to analyse: distinct from 0 so that a CI gate never takes an empty or non-iWARP capture as a pass. */
    public static final int EXIT_NOTHING = 3;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Option(names = {"-v", "--version"}, versionHelp = true, description = "Print the version and git commit, and exit.")
    boolean version;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** Plain {@code rddp}: the usage on stderr (a subcommand is needed), exit 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return EXIT_BAD_INPUT;
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code, without exiting (for tests). */
    public static int run(String... args) {
        CommandLine cl = commandLine();
        return cl.execute(args);
    }

    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // Usage errors are exit 2 like unreadable input: both mean "nothing was analysed".
        cl.setExitCodeExceptionMapper(e -> EXIT_BAD_INPUT);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("rddp: " + ex.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, c.getErr());
            c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for usage.");
            return EXIT_BAD_INPUT;
        });
        // a bug must still not end in a stack trace: one line that says what and asks for a report
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            if (Outputs.brokenPipe(ex)) return EXIT_OK; // the reader of our output went away
            StackTraceElement at = ex.getStackTrace().length > 0 ? ex.getStackTrace()[0] : null;
            c.getErr().println("rddp: internal error: " + ex + (at != null ? " at " + at : "")
                    + "; please report it with the command line (RDDP_JAVA_OPTS=-Drddp.trace=true shows the trace)");
            if (Boolean.getBoolean("rddp.trace")) ex.printStackTrace(c.getErr());
            c.getErr().flush();
            return EXIT_BAD_INPUT;
        });
        return cl;
    }

    /** Ranks exit codes of several files: unreadable beats findings beats nothing-to-analyse beats success. */
    static int worse(int a, int b) {
        return rank(a) >= rank(b) ? a : b;
    }

    private static int rank(int code) {
        return switch (code) {
            case EXIT_OK -> 0;
            case EXIT_NOTHING -> 1;
            case EXIT_FINDINGS -> 2;
            default -> 3;
        };
    }

    /** version.properties is written at build time (analyzer-cli/pom.xml): version and git commit, or "unknown". */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[]{"rddp " + text(),
                    "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"};
        }

        /** "0.1.0 (commit 1234abcd5678)", for reports that name the tool that wrote them. */
        static String text() {
            Properties p = new Properties();
            try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
                if (in != null) p.load(in);
            } catch (IOException e) {
                // an unreadable resource is an unknown version, not a failure of --version
            }
            String v = p.getProperty("version", "unknown"), commit = p.getProperty("commit", "");
            if (commit.isBlank() || commit.startsWith("${")) commit = "unknown";
            return v + " (commit " + commit + ")";
        }
    }
}
