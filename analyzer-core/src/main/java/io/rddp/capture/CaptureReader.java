package io.rddp.capture;

import java.io.Closeable;
import java.io.IOException;

/** Sequential reader of a capture file; pcap, pcapng and gzip of either are detected from the content. */
public interface CaptureReader extends Closeable {

    /**
     * Fills {@code frame} with the next frame.
     *
     * @return false at a clean end of file
     * @throws CaptureException when the file is malformed or truncated at this point; every earlier frame was returned
     */
    boolean next(Frame frame) throws IOException;

    /** Bytes of the underlying file consumed so far (compressed bytes for .gz), for progress reporting. */
    long bytesRead();

    /** Size of the underlying file in bytes, or -1 when unknown. */
    long size();

    /** A short name of the format: "pcap", "pcapng", with "+gzip" when compressed. */
    String format();

    /**
     * Whether the bytes of a frame's data stay as they are after {@link #next} returns (the reader never writes over
     * a buffer it handed out), so views of them may be read later, by another thread. False unless a reader knows.
     */
    default boolean stableViews() {
        return false;
    }

    /**
     * Asks the reader to reuse the buffers of the read windows the caller {@link #release}s instead of reading each
     * window into a fresh one (cheaper: see the file reader). From then on a frame's data stays valid until its
     * window is released, no longer for ever. Returns false when the reader does not recycle.
     */
    default boolean recycleWindows() {
        return false;
    }

    /** Number of the read window that holds the data of the frame {@link #next} returned last (0 if unwindowed). */
    default long window() {
        return 0;
    }

    /** The caller uses no frame data of windows numbered below {@code before} any more (see {@link #recycleWindows}). */
    default void release(long before) {
    }
}
