package io.rddp.gui.vm;

/**
 * One visible row of the packet list, built from the index and the field store only when a cell asks for it.
 *
 * @param row   the row's global number in the session's index
 * @param flags {@link io.rddp.gui.model.PduIndex} flags: direction, protocol, violation
 */
public record PacketRow(long row, long frame, long relativeNanos, int stream, String source, String destination,
                        String protocol, int length, String info, int flags) {

    public String time() {
        return String.format("%.6f", relativeNanos / 1e9);
    }
}
