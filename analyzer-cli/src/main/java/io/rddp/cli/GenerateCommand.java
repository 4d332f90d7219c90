package io.rddp.cli;

import io.rddp.Plural;
import io.rddp.capture.CaptureWriter;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.capture.PcapngWriter;
import io.rddp.generate.Generator;
import io.rddp.generate.Scenario;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

@Command(name = "generate",
        description = {"Write a synthetic iWARP capture of a named scenario (for tests, demos and benchmarks).",
                "The format follows OUT's name: .pcap, .pcapng, and .gz of either."},
        sortOptions = false)
final class GenerateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @picocli.CommandLine.Mixin
    HelpOption help;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO", description = "Scenario name; see --list.")
    String scenario;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "Capture file to write; '-' writes pcap to standard output (e.g. | rddp decode -).")
    Path output;

    @Option(names = "--list", description = "List the scenarios and exit.")
    boolean list;

    @Option(names = "--size", paramLabel = "SIZE", description = "Stop once the capture holds SIZE bytes (e.g. 100MiB, 10GB).",
            converter = SizeConverter.class)
    long size;

    @Option(names = "--count", paramLabel = "N", description = "Messages per connection (rping: iterations). Default 10 without --size.")
    long count;

    @Option(names = "--message-size", paramLabel = "BYTES", description = "Payload per message of the stream scenarios (default ${DEFAULT-VALUE}).")
    int messageSize = 65536;

    @Option(names = "--mss", paramLabel = "BYTES", description = "TCP maximum segment size (default 1448 for busy-rnic, 1460 for the others); FPDUs are sized to fit one segment.")
    int mss;

    @Option(names = "--connections", paramLabel = "N", description = "Connections of busy-rnic (default 64).")
    int connections;

    @Option(names = "--crc", description = "Negotiate CRC32c (markers-crc always does).")
    boolean crc;

    @Option(names = "--seed", description = "Seed for payload bytes and STags (default ${DEFAULT-VALUE}); the same seed gives the same file.")
    long seed = 1;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        if (list) {
            for (Scenario s : Scenario.values()) out.printf("%-16s %s%n", s.id(), s.description());
            out.flush();
            return Main.EXIT_OK;
        }
        Scenario s = scenario == null ? null : Scenario.byId(scenario);
        if (s == null || output == null) {
            err.println("rddp: " + (s == null ? (scenario == null ? "a SCENARIO is needed" : "unknown scenario '" + scenario + "'")
                    : "an output file is needed (-o OUT)") + "; see 'rddp generate --list' and --help");
            return Main.EXIT_BAD_INPUT;
        }
        if (messageSize < 0 || messageSize > (1 << 30)) {
            err.println("rddp: --message-size: must be 0..1073741824 (2^30) octets (got " + messageSize + ")");
            return Main.EXIT_BAD_INPUT;
        }
        if (mss != 0 && (mss < 64 || mss > 65495)) { // 0: the scenario's own
            err.println("rddp: --mss: must be 64..65495 octets (got " + mss + ")");
            return Main.EXIT_BAD_INPUT;
        }
        if (connections < 0 || connections > Generator.MAX_CONNECTIONS) {
            err.println("rddp: --connections: must be 1.." + Generator.MAX_CONNECTIONS + " (got " + connections + ")");
            return Main.EXIT_BAD_INPUT;
        }
        if (count < 0 || size < 0) {
            err.println("rddp: " + (count < 0 ? "--count: must be 0 (the default) or more (got " + count + ")"
                    : "--size: must not be negative"));
            return Main.EXIT_BAD_INPUT;
        }
        boolean stdout = output.toString().equals("-");
        String name = output.getFileName().toString().toLowerCase(Locale.ROOT).replaceFirst("\\.gz$", "");
        try (CaptureWriter w = stdout ? new PcapWriter(Outputs.open(null), LinkType.ETHERNET, true)
                : name.endsWith(".pcapng") ? PcapngWriter.create(output, LinkType.ETHERNET)
                : PcapWriter.create(output, LinkType.ETHERNET, true)) {
            Generator.Summary sum = Generator.generate(s,
                    new Generator.Options(size, count, messageSize, mss, crc, seed, connections), w);
            err.printf("rddp: wrote %s: %s, %s, about %s%n", stdout ? "standard output (pcap)" : output,
                    Plural.of(sum.frames(), "frame"), Plural.of(sum.messages(), "message"), Plural.of(sum.bytes(), "byte"));
            return Main.EXIT_OK;
        } catch (IOException e) {
            if (stdout && Outputs.brokenPipe(e)) return Main.EXIT_OK;
            err.println("rddp: " + Outputs.cannotWrite(stdout ? null : output, e));
            return Main.EXIT_BAD_INPUT;
        }
    }

    /** "100MiB", "10GB", "4096" → bytes. */
    static final class SizeConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            var m = java.util.regex.Pattern.compile("(?i)\\s*(\\d+)\\s*(|k|kb|kib|m|mb|mib|g|gb|gib|t|tb|tib)\\s*").matcher(value);
            if (!m.matches()) throw new CommandLine.TypeConversionException("not a size: '" + value + "' (e.g. 100MiB, 1GB)");
            String u = m.group(2).toLowerCase(Locale.ROOT);
            long base = u.endsWith("ib") || u.length() == 1 ? 1024 : 1000;
            int power = u.isEmpty() ? 0 : "kmgt".indexOf(u.charAt(0)) + 1;
            long n = Long.parseLong(m.group(1));
            for (int i = 0; i < power; i++) n = Math.multiplyExact(n, base);
            return n;
        }
    }
}
