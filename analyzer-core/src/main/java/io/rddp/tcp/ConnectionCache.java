package io.rddp.tcp;

/**
 * A small direct-mapped cache in front of a layer's map of per-connection state, found by the connection object
 * itself (identity) at the slot of its index: a hit costs one array load and no key, hash or boxed index. The
 * layer's map stays the owner of the state; it puts what it looked up and removes what it forgets.
 */
public final class ConnectionCache<V> {
    private static final int SLOTS = 1024;
    private final TcpConnection[] keys = new TcpConnection[SLOTS];
    private final Object[] values = new Object[SLOTS];

    /** The state cached for {@code c}, or null (then ask the map). */
    @SuppressWarnings("unchecked")
    public V get(TcpConnection c) {
        int i = c.index() & (SLOTS - 1);
        return keys[i] == c ? (V) values[i] : null;
    }

    public void put(TcpConnection c, V value) {
        int i = c.index() & (SLOTS - 1);
        keys[i] = c;
        values[i] = value;
    }

    /**
     * Forgets {@code c}'s slot, whoever holds it, so state the map dropped is not found here either (also under
     * another object equal to {@code c}, as maps keyed by equality allow).
     */
    public void remove(TcpConnection c) {
        int i = c.index() & (SLOTS - 1);
        keys[i] = null;
        values[i] = null;
    }

    public void clear() {
        java.util.Arrays.fill(keys, null);
        java.util.Arrays.fill(values, null);
    }
}
