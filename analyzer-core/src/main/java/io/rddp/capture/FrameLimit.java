package io.rddp.capture;

import java.io.IOException;

/**
 * A reader that counts the frames read and notes the first and last frame times, and can end the capture after N
 * frames (tshark's -c on a file). Shared by decode, analyze and stats.
 */
public final class FrameLimit implements CaptureReader {
    private final CaptureReader in;
    private final long limit;
    private long frames;
    private long firstNanos = Long.MIN_VALUE, lastNanos;

    /** @param limit frames to read at most; 0: all */
    public FrameLimit(CaptureReader in, long limit) {
        this.in = in;
        this.limit = limit;
    }

    public long frames() {
        return frames;
    }

    /** Time of the first frame read, or -1 before any. */
    public long firstNanos() {
        return frames == 0 ? -1 : firstNanos;
    }

    /** Time of the frame read last, or -1 before any. */
    public long lastNanos() {
        return frames == 0 ? -1 : lastNanos;
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
    public long relativeNanos() {
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
    public boolean recycleWindows() {
        return in.recycleWindows();
    }

    @Override
    public long window() {
        return in.window();
    }

    @Override
    public void release(long before) {
        in.release(before);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
