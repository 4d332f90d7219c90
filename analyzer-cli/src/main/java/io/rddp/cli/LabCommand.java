package io.rddp.cli;

import picocli.CommandLine.Command;

/**
 * {@code rddp lab} in the command list. Labs are shell scripts of a source checkout (lab/siw), dispatched by ./rddp
 * before any jar runs; the distribution archive carries none, and reaching this jar says so.
 */
@Command(name = "lab",
        description = {"Run Linux soft-iWARP in a qemu guest as a device under test (rddp lab siw SUBCOMMAND).",
                "Only from a source checkout (./rddp lab siw help): the distribution archive has no labs."})
final class LabCommand extends LauncherCommand {
    @Override
    String where() {
        return "labs are scripts of a source checkout: run ./rddp lab siw help in a clone of the"
                + " repository (docs/lab.md); the distribution archive has none";
    }
}
