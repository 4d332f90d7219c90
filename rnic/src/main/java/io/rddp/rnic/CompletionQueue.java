package io.rddp.rnic;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The RNIC's completion queue (one for all queue pairs, as most verbs applications use), bounded: a full queue is a
 * CQ overrun, which puts the queue pair that could not complete into the error state, as verbs does.
 */
public final class CompletionQueue {
    private final int capacity;
    private final ArrayDeque<WorkCompletion> entries = new ArrayDeque<>();
    /** told the work request id of every completion that leaves the queue (taken, dropped or lost) */
    private final java.util.function.LongConsumer gone;

    CompletionQueue(int capacity) {
        this(capacity, id -> { });
    }

    CompletionQueue(int capacity, java.util.function.LongConsumer gone) {
        this.capacity = capacity;
        this.gone = gone;
    }

    /** Adds a completion; false when the queue is full (the completion is lost). */
    synchronized boolean add(WorkCompletion wc) {
        if (entries.size() >= capacity) {
            gone.accept(wc.wrId());
            return false;
        }
        entries.add(wc);
        notifyAll();
        return true;
    }

    /**
     * Takes up to {@code max} completions of queue pair {@code qp} (-1: any), waiting up to {@code timeoutMs} for at
     * least {@code min}.
     */
    public List<WorkCompletion> poll(int qp, int max, int min, long timeoutMs) throws InterruptedException {
        return poll(q -> qp < 0 || q == qp, max, min, timeoutMs);
    }

    /** As {@link #poll(int, int, int, long)} for the queue pairs {@code qps} accepts (one control session's). */
    public synchronized List<WorkCompletion> poll(java.util.function.IntPredicate qps, int max, int min,
                                                  long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (count(qps) < Math.min(min, max)) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) break;
            wait(left);
        }
        List<WorkCompletion> out = new ArrayList<>();
        for (Iterator<WorkCompletion> it = entries.iterator(); it.hasNext() && out.size() < max; ) {
            WorkCompletion wc = it.next();
            if (qps.test(wc.qp())) {
                out.add(wc);
                it.remove();
                gone.accept(wc.wrId());
            }
        }
        return out;
    }

    /** Takes the completion of work request {@code wrId}, waiting up to {@code timeoutMs}; null when none came. */
    public synchronized WorkCompletion take(long wrId, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (true) {
            for (Iterator<WorkCompletion> it = entries.iterator(); it.hasNext(); ) {
                WorkCompletion wc = it.next();
                if (wc.wrId() == wrId) {
                    it.remove();
                    gone.accept(wrId);
                    return wc;
                }
            }
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) return null;
            wait(left);
        }
    }

    /** Forgets the completions of a destroyed queue pair. */
    synchronized void drop(int qp) {
        entries.removeIf(wc -> {
            if (wc.qp() != qp) return false;
            gone.accept(wc.wrId());
            return true;
        });
    }

    public synchronized int size() {
        return entries.size();
    }

    private int count(java.util.function.IntPredicate qps) {
        int n = 0;
        for (WorkCompletion wc : entries) if (qps.test(wc.qp())) n++;
        return n;
    }
}
