package io.rddp.capture;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A forward-only window onto the bytes of an (uncompressed) capture file. The readers parse directly in
 * {@link #buffer()}: file offset {@code o} is at buffer index {@code o - base()}, for {@code base() <= o < end()}.
 * Bytes before the offset last passed to {@link #ensure} may be dropped by the next call to it.
 */
interface ByteSource extends Closeable {

    /**
     * Makes {@code [offset, offset + length)} available in {@link #buffer()}, moving the window if needed.
     * {@code offset} must not lie before the offset of the previous call.
     *
     * @return how many of the requested bytes are available: {@code length}, or fewer when the file ends
     *         ({@link #atEof()} is then true) or when the request is larger than the source can hold at once
     */
    int ensure(long offset, int length) throws IOException;

    /** Big-endian or not as the reader last set it; valid until the next {@link #ensure}. */
    ByteBuffer buffer();

    /** File offset of buffer index 0. */
    long base();

    /** True when the bytes available end where the file ends. */
    boolean atEof();

    /** Whether a buffer once handed out is never written again (see {@link CaptureReader#stableViews()}). */
    default boolean stable() {
        return false;
    }

    /**
     * Asks the source to reuse the buffers of windows the caller {@link #release}s; from now on views are valid only
     * until then. Returns false when this source does not recycle (views stay as {@link #stable} says).
     */
    default boolean recycle() {
        return false;
    }

    /** Number of the window {@link #buffer()} is, counted from 0 (0 for a source of one moving buffer). */
    default long window() {
        return 0;
    }

    /** The caller uses no view of a window numbered below {@code before} any more. */
    default void release(long before) {
    }

    /** Largest number of bytes one {@link #ensure} can make available. */
    long maxSpan();
}
