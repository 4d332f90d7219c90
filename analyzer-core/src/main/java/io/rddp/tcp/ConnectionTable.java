package io.rddp.tcp;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * {@link TcpReassembler}'s connections by 4-tuple, in order of last activity, and the stream numbers they get (from
 * 0 in order of first appearance, like tshark's tcp.stream). Deciding when a connection ends (4-tuple reuse,
 * eviction) and what that means for its bytes is the reassembler's; this only keeps the table.
 */
final class ConnectionTable {
    // access order: the eldest entry is the least recently active connection, the one evicted first
    private final LinkedHashMap<Key, TrackedConnection> connections = new LinkedHashMap<>(64, 0.75f, true);
    private final Key probe = new Key();
    private int nextIndex;

    /** The connection between these endpoints (either way round), or null; counts as activity. */
    TrackedConnection get(Endpoint a, Endpoint b) {
        return connections.get(probe.set(a, b));
    }

    /** A new connection with the next stream number. */
    TrackedConnection add(Endpoint client, Endpoint server) {
        TrackedConnection c = new TrackedConnection(nextIndex++, client, server);
        connections.put(c.key, c);
        return c;
    }

    void remove(TrackedConnection c) {
        connections.remove(c.key);
    }

    /** Takes the least recently active connection out of the table. */
    TrackedConnection removeEldest() {
        Iterator<TrackedConnection> it = connections.values().iterator();
        TrackedConnection old = it.next();
        it.remove();
        return old;
    }

    int size() {
        return connections.size();
    }

    /** Streams numbered so far (the next stream gets this index). */
    int streamCount() {
        return nextIndex;
    }

    /** The connections, copied, so that the caller may remove them while going through. */
    List<TrackedConnection> snapshot() {
        return new ArrayList<>(connections.values());
    }

    void clear() {
        connections.clear();
    }

    /** Connection-table key matching a 4-tuple in either direction. Mutable only for the lookup probe. */
    static final class Key {
        private Endpoint a;
        private Endpoint b;
        private int hash;

        Key set(Endpoint a, Endpoint b) {
            this.a = a;
            this.b = b;
            this.hash = a.hashCode() + b.hashCode(); // symmetric
            return this;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && ((same(a, k.a) && same(b, k.b)) || (same(a, k.b) && same(b, k.a)));
        }

        @Override
        public int hashCode() {
            return hash;
        }

        private static boolean same(Endpoint x, Endpoint y) {
            return x == y || x.equals(y);
        }
    }
}
