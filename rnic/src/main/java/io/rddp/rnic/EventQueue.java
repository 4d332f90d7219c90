package io.rddp.rnic;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

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
    public synchronized List<AsyncEvent> poll(int max, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (events.isEmpty()) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) break;
            wait(left);
        }
        List<AsyncEvent> out = new ArrayList<>();
        while (!events.isEmpty() && out.size() < max) out.add(events.poll());
        return out;
    }

    /** Events dropped because nobody took them in time. */
    public synchronized long dropped() {
        return dropped;
    }
}
