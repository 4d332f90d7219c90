package io.rddp.cli;

import picocli.CommandLine.Command;

/**
 * {@code rddp gui} in the command list. The launcher scripts (./rddp, bin/rddp of the archive) start the window
 * themselves, with JavaFX on the module path; this jar has no window, so reaching it says where the window is.
 */
@Command(name = "gui",
        description = {"Open the window: packet list, field tree, hex, violations, ladder, placement map (rddp gui [FILE]).",
                "Started by the rddp launcher (./rddp gui in a checkout, bin/rddp gui from the archive), not by rddp.jar."})
final class GuiCommand extends LauncherCommand {
    @Override
    String where() {
        return "the window is started by the rddp launcher script (./rddp gui in a checkout, bin/rddp gui"
                + " from the distribution archive), which puts JavaFX on the module path; rddp.jar alone has no window";
    }
}
