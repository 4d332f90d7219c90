package io.rddp.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;
import picocli.CommandLine.Model.CommandSpec;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rddp lab} in the command list. Labs are shell scripts of a source checkout (lab/siw), dispatched by ./rddp
 * before any jar runs; the distribution archive carries none, and reaching this jar says so.
 */
@Command(name = "lab",
        description = {"Run Linux soft-iWARP in a qemu guest as a device under test (rddp lab siw SUBCOMMAND).",
                "Only from a source checkout (./rddp lab siw help): the distribution archive has no labs."})
final class LabCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    HelpOption help;

    @Unmatched
    List<String> args;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("rddp lab: labs are scripts of a source checkout: run ./rddp lab siw help"
                + " in a clone of the repository (docs/lab.md); the distribution archive has none");
        return Main.EXIT_BAD_INPUT;
    }
}
