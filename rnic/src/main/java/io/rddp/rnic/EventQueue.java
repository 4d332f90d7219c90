package io.rddp.rnic;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.IntPredicate;

/** Asynchronous events, bounded: when full the oldest are dropped and counted. */
public final class EventQueue {
    private final int capacity;
    private final ArrayDeque<AsyncEvent> events = new ArrayDeque<>();
    private long dropped;

    EventQueue(int capacity) {
        this.capacity = capacity;
    }

    synchronized void add(AsyncEvent e) {
        if (events.size() >= capacity) {
            events.poll();
            dropped++;
        }
        events.add(e);
        notifyAll();
    }

    /** Takes up to {@code max} events, waiting up to {@code timeoutMs} for one. */
    public List<AsyncEvent> poll(int max, long timeoutMs) throws InterruptedException {
        return poll(qp -> true, max, timeoutMs);
    }

    /**
     * As {@link #poll(int, long)}, taking only events of the queue pairs {@code qps} accepts (one control session's)
     * and those of no queue pair.
     */
    public synchronized List<AsyncEvent> poll(IntPredicate qps, int max, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (count(qps) == 0) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) break;
            wait(left);
        }
        List<AsyncEvent> out = new ArrayList<>();
        for (Iterator<AsyncEvent> it = events.iterator(); it.hasNext() && out.size() < max; ) {
            AsyncEvent e = it.next();
            if (e.qp() < 0 || qps.test(e.qp())) {
                out.add(e);
                it.remove();
            }
        }
        return out;
    }

    /** Forgets the events of the queue pairs {@code qps} accepts (destroyed by a session's reset). */
    synchronized void drop(IntPredicate qps) {
        events.removeIf(e -> e.qp() >= 0 && qps.test(e.qp()));
    }

    private int count(IntPredicate qps) {
        int n = 0;
        for (AsyncEvent e : events) if (e.qp() < 0 || qps.test(e.qp())) n++;
        return n;
    }

    /** Events dropped because nobody took them in time. */
    public synchronized long dropped() {
        return dropped;
    }
}
