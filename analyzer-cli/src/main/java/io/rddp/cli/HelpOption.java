package io.rddp.cli;

import picocli.CommandLine.Option;

/**
 * {@code -h, --help} of every subcommand. Not picocli's standard mixin: that also adds {@code -V, --version}, and
 * {@code -V} is "verbose" in rddp as in tshark ({@code -v, --version} exists on {@code rddp} itself).
 */
final class HelpOption {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;
}
