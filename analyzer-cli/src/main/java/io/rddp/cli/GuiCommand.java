package io.rddp.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;
import picocli.CommandLine.Model.CommandSpec;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rddp gui} in the command list. The launcher scripts (./rddp, bin/rddp of the archive) start the window
 * themselves, with JavaFX on the module path; this jar has no window, so reaching it says where the window is.
 */
@Command(name = "gui",
        description = {"Open the window: packet list, field tree, hex, violations, ladder, placement map (rddp gui [FILE]).",
                "Started by the rddp launcher (./rddp gui in a checkout, bin/rddp gui from the archive), not by rddp.jar."})
final class GuiCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    HelpOption help;

    @Unmatched
    List<String> args;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("rddp gui: the window is started by the rddp launcher script (./rddp gui"
                + " in a checkout, bin/rddp gui from the distribution archive), which puts JavaFX on the module path;"
                + " rddp.jar alone has no window");
        return Main.EXIT_BAD_INPUT;
    }
}
