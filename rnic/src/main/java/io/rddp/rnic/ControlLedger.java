package io.rddp.rnic;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which control session owns which listener and connected queue pair, for a server that serves a tester several
 * sessions at once (docs/dut-control.md, Sessions): each session then resets only what it made, and polls only its
 * own completions and events. A session alone keeps the one-session behaviour (its reset destroys everything).
 */
final class ControlLedger {
    private final Set<Object> live = new HashSet<>();
    private final Map<Integer, Object> listeners = new HashMap<>();
    private final Map<Integer, Object> connected = new HashMap<>();

    synchronized void join(Object session) {
        live.add(session);
    }

    synchronized void leave(Object session) {
        live.remove(session);
        forget(session);
    }

    /** No other session is live: the session may act on the whole RNIC, as with one session at a time. */
    synchronized boolean alone(Object session) {
        return live.size() == 1 && live.contains(session);
    }

    /** The owner of listener {@code id}, or null. */
    synchronized Object listenerOwner(int id) {
        return listeners.get(id);
    }

    synchronized void ownListener(int id, Object session) {
        listeners.put(id, session);
    }

    /** A queue pair the session's {@code connect} made. */
    synchronized void ownQp(int qpn, Object session) {
        connected.put(qpn, session);
    }

    /** Whether {@code qp} is the session's: it connected it, or one of its listeners accepted it. */
    synchronized boolean owns(Object session, QueuePair qp) {
        Object o = connected.get(qp.qpn());
        if (o == null && qp.listener != null) o = listeners.get(qp.listener.id());
        return o == session;
    }

    synchronized Set<Integer> listenersOf(Object session) {
        Set<Integer> out = new HashSet<>();
        for (Map.Entry<Integer, Object> e : listeners.entrySet()) if (e.getValue() == session) out.add(e.getKey());
        return out;
    }

    /** The session reset: it owns nothing any more. */
    synchronized void forget(Object session) {
        listeners.values().removeIf(o -> o == session);
        connected.values().removeIf(o -> o == session);
    }
}
