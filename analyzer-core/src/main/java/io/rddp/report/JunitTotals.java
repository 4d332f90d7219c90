package io.rddp.report;

/**
 * The counting attributes of a {@code <testsuites>} or {@code <testsuite>} element.
 *
 * @param name     the suite's name
 * @param tests    test cases
 * @param failures cases that failed
 * @param errors   cases that could not be judged
 * @param skipped  cases skipped (CI systems read these as not failed)
 * @param millis   the suite's duration, or null when not measured (no {@code time} attribute is written)
 */
public record JunitTotals(String name, long tests, long failures, long errors, long skipped, Long millis) {
}
