package io.rddp.cli;

import io.rddp.decode.Pdu;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Writes decoded PDUs in one output format. Output errors surface as {@link UncheckedIOException}. */
interface PduWriter extends Closeable {
    void write(Pdu pdu);

    void flush() throws IOException;
}
