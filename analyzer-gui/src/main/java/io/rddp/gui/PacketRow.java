package io.rddp.gui;

/** One row of the packet list: what the GUI shows per decoded PDU, copied out of the pipeline's views. */
public record PacketRow(long frame, long relativeNanos, int stream, String source, String destination,
                        String protocol, String info) {
}
