package io.rddp.field;

import java.util.List;

/** The fields of the PDU itself: where and when it was captured, and why it could not be decoded. */
public final class FrameField {
    private FrameField() {
    }

    private static final FieldList L = new FieldList();

    public static final Layer PDU = Layer.root("its frame, stream and endpoints, and what could not be decoded");

    public static final Field FRAME = L.number(PDU, "frame", "Frame",
            "Number of the capture frame the PDU ends in, counted from 1", "-");
    public static final Field STREAM = L.number(PDU, "stream", "TCP stream",
            "Index of the TCP connection, counted from 0 in the order the capture shows them", "-");
    public static final Field SRC = L.text(PDU, "src", "Source", "Sender's address and port", "-");
    public static final Field DST = L.text(PDU, "dst", "Destination", "Receiver's address and port", "-");
    public static final Field TIME = L.add(PDU, "time", "Capture time (epoch seconds)", FieldType.TIME, Base.NONE,
            "Capture time of the frame the PDU ends in, as seconds.nanoseconds since the epoch", "-");
    public static final Field PROBLEM = L.text(PDU, "problem", "Could not decode",
            "Why the DDP segment or RDMAP message in the FPDU could not be decoded", "-");

    static final List<Field> ALL = L.all();
}
