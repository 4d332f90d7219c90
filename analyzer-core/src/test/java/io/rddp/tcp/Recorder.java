package io.rddp.tcp;

import io.rddp.Notice;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Records everything a {@link TcpReassembler} reports, checking the listener contract as it goes. */
final class Recorder implements TcpListener {
    record Data(int stream, Direction direction, long offset, byte[] bytes, long frame) {
    }

    record Gap(int stream, Direction direction, long offset, long length, long frame) {
    }

    record Close(int stream, Direction direction, long offset, boolean reset, long frame) {
    }

    final List<TcpConnection> connections = new ArrayList<>();
    final List<Data> data = new ArrayList<>();
    final List<Gap> gaps = new ArrayList<>();
    final List<Close> closes = new ArrayList<>();
    final List<Notice> notices = new ArrayList<>();
    private final Map<String, Long> expectedOffset = new HashMap<>();
    private final Map<String, ByteArrayOutputStream> streams = new HashMap<>();

    @Override
    public void onConnection(TcpConnection connection) {
        if (connection.index() != connections.size()) {
            throw new AssertionError("stream " + connection.index() + " announced as number " + connections.size());
        }
        connections.add(connection);
    }

    @Override
    public void onData(TcpConnection connection, Direction direction, long offset, ByteBuffer bytes, long frame) {
        advance(connection, direction, offset, bytes.remaining());
        byte[] copy = new byte[bytes.remaining()];
        bytes.duplicate().get(copy);
        data.add(new Data(connection.index(), direction, offset, copy, frame));
        streams.computeIfAbsent(key(connection.index(), direction), k -> new ByteArrayOutputStream()).writeBytes(copy);
    }

    @Override
    public void onGap(TcpConnection connection, Direction direction, long offset, long length, long frame) {
        if (length <= 0) throw new AssertionError("empty gap at " + offset);
        advance(connection, direction, offset, length);
        gaps.add(new Gap(connection.index(), direction, offset, length, frame));
    }

    @Override
    public void onClose(TcpConnection connection, Direction direction, long offset, boolean reset, long frame) {
        closes.add(new Close(connection.index(), direction, offset, reset, frame));
    }

    @Override
    public void onNotice(Notice notice) {
        notices.add(notice);
    }

    /** Offsets must be contiguous across data and gaps (the listener contract). */
    private void advance(TcpConnection c, Direction d, long offset, long length) {
        String k = key(c.index(), d);
        long expected = expectedOffset.getOrDefault(k, 0L);
        if (offset != expected) {
            throw new AssertionError("stream " + k + ": offset " + offset + " where " + expected + " was next");
        }
        expectedOffset.put(k, offset + length);
    }

    /** Bytes delivered in one direction, gaps left out. */
    byte[] bytes(int stream, Direction d) {
        ByteArrayOutputStream s = streams.get(key(stream, d));
        return s == null ? new byte[0] : s.toByteArray();
    }

    List<Gap> gaps(int stream, Direction d) {
        return gaps.stream().filter(g -> g.stream() == stream && g.direction() == d).toList();
    }

    List<Data> data(int stream, Direction d) {
        return data.stream().filter(x -> x.stream() == stream && x.direction() == d).toList();
    }

    List<Notice> notices(Notice.Severity severity) {
        return notices.stream().filter(n -> n.severity() == severity).toList();
    }

    private static String key(int stream, Direction d) {
        return stream + "/" + d;
    }
}
