package io.rddp.live;

import java.io.IOException;

/** Live capture could not start or went wrong; the message says so in plain words, with what to do. */
public final class LiveCaptureException extends IOException {
    public LiveCaptureException(String message, Throwable cause) {
        super(message, cause);
    }
}
