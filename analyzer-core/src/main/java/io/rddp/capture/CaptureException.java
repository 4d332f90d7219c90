package io.rddp.capture;

import java.io.IOException;

/**
 * The capture file cannot be read further: bad magic, a record whose length lies, a truncated file.
 * Thrown only after every frame before the bad spot was returned, and names where the problem is.
 */
public class CaptureException extends IOException {
    private final long fileOffset;
    private final long frame;

    public CaptureException(String message, long fileOffset, long frame) {
        super(message + " (at file offset " + fileOffset + (frame > 0 ? ", frame " + frame : "") + ")");
        this.fileOffset = fileOffset;
        this.frame = frame;
    }

    /** Offset in the uncompressed file where the bad record starts. */
    public long fileOffset() {
        return fileOffset;
    }

    /** Number the bad frame would have had, or 0 when the problem is not in a frame record. */
    public long frame() {
        return frame;
    }
}
