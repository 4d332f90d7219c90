package io.rddp.decode;

import io.rddp.ddp.DdpMessageAssembler;
import io.rddp.ddp.DdpSegment;
import io.rddp.tcp.ConnectionCache;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.util.HashMap;
import java.util.Map;

/** One DDP message assembler per connection direction; freed when TCP says the connection ended. */
final class DdpStage {
    private final PduListener listener;
    private final Map<TcpConnection, DdpMessageAssembler[]> assemblers = new HashMap<>();
    private final ConnectionCache<DdpMessageAssembler[]> cache = new ConnectionCache<>();

    DdpStage(PduListener listener) {
        this.listener = listener;
    }

    void accept(TcpConnection c, Direction d, DdpSegment segment, long frame) {
        DdpMessageAssembler[] pair = cache.get(c);
        if (pair == null) {
            pair = assemblers.computeIfAbsent(c, k -> new DdpMessageAssembler[2]);
            cache.put(c, pair);
        }
        int i = d.ordinal();
        if (pair[i] == null) pair[i] = new DdpMessageAssembler(m -> listener.onMessage(c, d, m));
        pair[i].accept(segment, frame);
    }

    /** Reports the connection's unfinished messages as abandoned and forgets it. */
    void end(TcpConnection c) {
        DdpMessageAssembler[] pair = assemblers.remove(c);
        cache.remove(c);
        if (pair == null) return;
        for (DdpMessageAssembler a : pair) {
            if (a != null) a.abandonAll();
        }
    }

    void endAll() {
        for (TcpConnection c : assemblers.keySet().toArray(new TcpConnection[0])) end(c);
    }
}
