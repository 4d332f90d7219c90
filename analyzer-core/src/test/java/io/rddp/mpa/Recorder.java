package io.rddp.mpa;

import io.rddp.Notice;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Keeps everything an {@link MpaDecoder} reports, copying ULPDUs out of their short-lived views. */
final class Recorder implements MpaListener {
    record Start(Direction dir, MpaStartFrame frame, long offset, long firstFrame, long lastFrame) {
    }

    record Got(Direction dir, Fpdu fpdu, byte[] ulpdu, ByteBuffer view) {
    }

    final List<Start> starts = new ArrayList<>();
    final List<Got> fpdus = new ArrayList<>();
    final List<Notice> notices = new ArrayList<>();
    /** stream offsets of the Markers reported by {@link #onMarkerError} */
    final List<Long> markerErrors = new ArrayList<>();

    @Override
    public void onStartFrame(TcpConnection connection, Direction direction, MpaStartFrame startFrame, long offset,
                             long firstFrame, long frame) {
        starts.add(new Start(direction, startFrame, offset, firstFrame, frame));
    }

    @Override
    public void onFpdu(TcpConnection connection, Direction direction, Fpdu fpdu) {
        ByteBuffer v = fpdu.ulpdu();
        byte[] copy = new byte[v.remaining()];
        v.duplicate().get(copy);
        fpdus.add(new Got(direction, fpdu, copy, v));
    }

    @Override
    public void onMarkerError(TcpConnection connection, Direction direction, long offset, long frame, String detail) {
        markerErrors.add(offset);
    }

    @Override
    public void onNotice(Notice notice) {
        notices.add(notice);
    }

    List<Got> fpdus(Direction d) {
        return fpdus.stream().filter(g -> g.dir() == d).toList();
    }

    List<Notice> notices(Notice.Severity s) {
        return notices.stream().filter(n -> n.severity() == s).toList();
    }
}
