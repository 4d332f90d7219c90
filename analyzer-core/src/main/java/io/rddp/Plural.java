package io.rddp;

/** A count with its noun in the number the count needs: "1 frame", "0 frames", "2 frames". */
public final class Plural {
    private Plural() {
    }

    /** {@code n} and {@code singular}, with an "s" unless n is 1 (every noun rddp counts is regular). */
    public static String of(long n, String singular) {
        return of(n, singular, singular + "s");
    }

    public static String of(long n, String singular, String plural) {
        return n + " " + (n == 1 ? singular : plural);
    }
}
