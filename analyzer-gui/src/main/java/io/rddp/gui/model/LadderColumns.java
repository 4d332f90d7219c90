package io.rddp.gui.model;

import io.rddp.rdmap.Opcode;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The arrows of one stream's ladder as numbers in columns, not an object and a label string per message: a busy
 * capture has hundreds of thousands of them, and only the stream on show needs its labels, made by {@link #get} when
 * asked. About 40 bytes an arrow. Confined to the session's lock.
 */
final class LadderColumns {
    private static final int MPA_REQUEST = -2, MPA_REPLY = -3; // kinds below 0; 0..31 an RDMAP opcode code
    private static final int S2C = 1, TAGGED = 2, REJECT = 4;

    private int size;
    private byte[] flags = new byte[16];
    private byte[] kind = new byte[16];
    private long[] firstFrame = new long[16];
    private long[] lastFrame = new long[16];
    private long[] answers = new long[16];
    /** MSN, STag or MPA revision. */
    private long[] value = new long[16];
    private long[] length = new long[16];
    /** Labels that are not made from the numbers (a Terminate's reason), by index. */
    private final Map<Integer, String> labels = new HashMap<>();

    int size() {
        return size;
    }

    /** Appends an MPA Request or Reply; returns its index. */
    int addStartFrame(boolean serverToClient, boolean request, int revision, boolean reject, long frame) {
        return add((serverToClient ? S2C : 0) | (reject ? REJECT : 0), request ? MPA_REQUEST : MPA_REPLY, frame, frame,
                -1, revision, 0);
    }

    /** Appends a delivered message; returns its index. */
    int addMessage(boolean serverToClient, int opcode, boolean tagged, long msnOrStag, long length, long firstFrame,
                   long lastFrame, long answers) {
        return add((serverToClient ? S2C : 0) | (tagged ? TAGGED : 0), opcode, firstFrame, lastFrame, answers,
                msnOrStag, length);
    }

    private int add(int f, int k, long first, long last, long answer, long v, long len) {
        if (size == flags.length) {
            int n = size * 2;
            flags = Arrays.copyOf(flags, n);
            kind = Arrays.copyOf(kind, n);
            firstFrame = Arrays.copyOf(firstFrame, n);
            lastFrame = Arrays.copyOf(lastFrame, n);
            answers = Arrays.copyOf(answers, n);
            value = Arrays.copyOf(value, n);
            length = Arrays.copyOf(length, n);
        }
        flags[size] = (byte) f;
        kind[size] = (byte) k;
        firstFrame[size] = first;
        lastFrame[size] = last;
        answers[size] = answer;
        value[size] = v;
        length[size] = len;
        return size++;
    }

    long firstFrame(int i) {
        return firstFrame[i];
    }

    long lastFrame(int i) {
        return lastFrame[i];
    }

    String kind(int i) {
        int k = kind[i];
        if (k == MPA_REQUEST) return "MPA Request";
        if (k == MPA_REPLY) return "MPA Reply";
        Opcode op = Opcode.of(k);
        return op == null ? "Reserved " + k : op.shortName();
    }

    /** Replaces what arrow {@code i} says. */
    void label(int i, String label) {
        labels.put(i, label);
    }

    /** Arrow {@code i} with its label, marked as {@code violation} says. */
    LadderEvent get(int i, boolean violation) {
        return new LadderEvent((flags[i] & S2C) != 0, firstFrame[i], lastFrame[i], label(i), kind(i), answers[i],
                violation);
    }

    private String label(int i) {
        String l = labels.get(i);
        if (l != null) return l;
        int k = kind[i];
        if (k == MPA_REQUEST || k == MPA_REPLY) {
            return kind(i) + " rev " + value[i] + ((flags[i] & REJECT) != 0 ? " REJECT" : "");
        }
        StringBuilder sb = new StringBuilder(kind(i));
        if ((flags[i] & TAGGED) == 0) sb.append(" MSN ").append(value[i]);
        else sb.append(" STag 0x").append(Long.toHexString(value[i]));
        return sb.append(", ").append(length[i]).append(" B").toString();
    }
}
