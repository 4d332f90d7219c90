package io.rddp.report;

/**
 * One {@code <testcase>}.
 *
 * @param classname its class name (CI systems group cases by it)
 * @param name      its name
 * @param millis    how long it ran, or null when not measured (no {@code time} attribute)
 * @param outcome   why it did not pass, or null when it passed
 * @param systemOut its {@code <system-out>}, or null for none
 */
public record JunitCase(String classname, String name, Long millis, JunitOutcome outcome, String systemOut) {
}
