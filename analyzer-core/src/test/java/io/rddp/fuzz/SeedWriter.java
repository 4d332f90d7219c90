package io.rddp.fuzz;

import java.io.ByteArrayOutputStream;

/**
 * Writes a fuzz input that Jazzer's {@code FuzzedDataProvider} reads back as the given sequence of choices, so seed
 * inputs for the structured targets can be derived from real captures. The provider takes byte arrays from the front
 * of the input and integers from the back, most significant byte last in the input (Jazzer 0.30
 * {@code fuzzed_data_provider.cpp}, ConsumeIntegralInRange); a value already in range is returned as is.
 * Every method must be called in the same order as the target consumes.
 */
final class SeedWriter {
    private final ByteArrayOutputStream front = new ByteArrayOutputStream();
    private final ByteArrayOutputStream back = new ByteArrayOutputStream();

    /** As {@code consumeInt(min, max)} returning {@code value}; min must be >= 0. */
    SeedWriter intIn(int min, int max, int value) {
        if (min < 0 || value < min || value > max) throw new IllegalArgumentException(min + " " + max + " " + value);
        return integral((long) max - min, value & 0xFFFFFFFFL, 4);
    }

    /** As {@code consumeLong(min, max)} returning {@code value}; min must be >= 0. */
    SeedWriter longIn(long min, long max, long value) {
        if (min < 0 || value < min || value > max) throw new IllegalArgumentException(min + " " + max + " " + value);
        return integral(max - min, value, 8);
    }

    /** As {@code consumeBoolean()}. */
    SeedWriter bool(boolean b) {
        back.write(b ? 1 : 0);
        return this;
    }

    /** As {@code consumeBytes(bytes.length)}. */
    SeedWriter bytes(byte[] bytes) {
        front.writeBytes(bytes);
        return this;
    }

    byte[] toBytes() {
        byte[] f = front.toByteArray();
        byte[] b = back.toByteArray();
        byte[] out = new byte[f.length + b.length];
        System.arraycopy(f, 0, out, 0, f.length);
        // the provider reads integers from the last byte backwards
        for (int i = 0; i < b.length; i++) out[out.length - 1 - i] = b[i];
        return out;
    }

    private SeedWriter integral(long range, long value, int size) {
        int n = 0;
        while (n < size && (range >>> (8 * n)) > 0) n++;
        for (int i = n - 1; i >= 0; i--) back.write((int) (value >>> (8 * i)));
        return this;
    }
}
