package io.rddp.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code rddp completion}: the bash (and zsh, through bashcompinit) completion script picocli derives from the options. */
@Command(name = "completion",
        description = {"Print a bash completion script for rddp (zsh: after 'autoload -U bashcompinit; bashcompinit').",
                "Use: source <(rddp completion), or rddp completion > /etc/bash_completion.d/rddp"})
final class CompletionCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    HelpOption help;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        out.print(AutoComplete.bash("rddp", spec.root().commandLine()));
        out.flush();
        return Main.EXIT_OK;
    }
}
