package io.rddp.conformance;

/**
 * How many scenarios a DUT can take at once, and in words why no more (printed when --jobs asks for more).
 *
 * @param max at least 1
 * @param why the reason for the limit
 */
public record JobLimit(int max, String why) {
    public JobLimit {
        if (max < 1) throw new IllegalArgumentException("max must be at least 1");
    }
}
