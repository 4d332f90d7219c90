package io.rddp.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code rddp} command. Exit codes: 0 success, 1 findings (analyze), 2 bad usage or input. */
@Command(name = "rddp",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Protocol analyzer and conformance suite for iWARP (TCP / MPA / DDP / RDMAP).",
        subcommands = {DecodeCommand.class, AnalyzeCommand.class, GenerateCommand.class, PeerCommand.class,
                ConformCommand.class, StatsCommand.class,
                CommandLine.HelpCommand.class})
public final class Main {

    public static final int EXIT_OK = 0;
    public static final int EXIT_FINDINGS = 1;
    public static final int EXIT_BAD_INPUT = 2;

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
        return cl;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[]{"rddp " + (v == null ? "development build" : v)};
        }
    }
}
