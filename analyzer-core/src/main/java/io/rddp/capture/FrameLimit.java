package io.rddp.cli;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.Frame;

import java.io.IOException;

/** Counts the frames read, and ends the capture after {@code -c N} of them (tshark's -c on a file). */
final class FrameLimit implements CaptureReader {
    private final CaptureReader in;
    private final long limit;
    private long frames;
    private long firstNanos = Long.MIN_VALUE, lastNanos;

    /** @param limit frames to read at most; 0: all */
    FrameLimit(CaptureReader in, long limit) {
        this.in = in;
        this.limit = limit;
    }

    long frames() {
        return frames;
    }

    @Override
    public boolean next(Frame frame) throws IOException {
        if (limit > 0 && frames >= limit) return false;
        boolean more = in.next(frame);
        if (more) {
            frames++;
            if (firstNanos == Long.MIN_VALUE) firstNanos = frame.timestampNanos;
            lastNanos = frame.timestampNanos;
        }
        return more;
    }

    /** Time of the frame read last since the first frame (a TCP event's time in decode). */
    long relativeNanos() {
        return firstNanos == Long.MIN_VALUE ? 0 : lastNanos - firstNanos;
    }

    @Override
    public long bytesRead() {
        return in.bytesRead();
    }

    @Override
    public long size() {
        return in.size();
    }

    @Override
    public String format() {
        return in.format();
    }

    @Override
    public boolean stableViews() {
        return in.stableViews();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
