package io.rddp.report;

/**
 * Why a test case did not pass: a {@code <failure>}, {@code <error>} or {@code <skipped>} element.
 *
 * @param kind    which element
 * @param message its {@code message} attribute
 * @param type    its {@code type} attribute, or null for none
 * @param text    its content, or null for none (a skipped case never has content)
 */
public record JunitOutcome(Kind kind, String message, String type, String text) {

    public enum Kind {
        FAILURE("failure"), ERROR("error"), SKIPPED("skipped");

        final String element;

        Kind(String element) {
            this.element = element;
        }
    }

    public static JunitOutcome failure(String message, String type, String text) {
        return new JunitOutcome(Kind.FAILURE, message, type, text);
    }

    public static JunitOutcome error(String message, String type, String text) {
        return new JunitOutcome(Kind.ERROR, message, type, text);
    }

    public static JunitOutcome skipped(String message) {
        return new JunitOutcome(Kind.SKIPPED, message, null, null);
    }
}
