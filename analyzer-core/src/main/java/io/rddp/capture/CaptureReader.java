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
}
