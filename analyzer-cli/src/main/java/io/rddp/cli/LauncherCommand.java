package io.rddp.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * A command of the rddp launcher scripts listed in rddp.jar's command list: the scripts run it before any jar does,
 * so reaching the jar's copy only says where it runs (exit 2).
 */
abstract class LauncherCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    HelpOption help;

    @Unmatched
    List<String> args;

    /** Where the command runs instead, one sentence after "rddp NAME: ". */
    abstract String where();

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("rddp " + spec.name() + ": " + where());
        return Main.EXIT_BAD_INPUT;
    }
}
