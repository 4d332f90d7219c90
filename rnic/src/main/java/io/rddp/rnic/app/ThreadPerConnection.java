package io.rddp.rnic.app;

import io.rddp.rnic.QueuePair;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * How the emulated servers take connections, as {@code rping -s} does: each accepted queue pair served on a daemon
 * thread of its own, so one that says nothing holds off nobody (the listener's admission control bounds how many).
 */
public final class ThreadPerConnection {
    private ThreadPerConnection() {
    }

    /** Accepts one queue pair within about a second, or returns null. */
    @FunctionalInterface
    public interface Accept {
        QueuePair next() throws InterruptedException;
    }

    /**
     * Serves queue pairs until {@code connections} were accepted (0: never), then waits for them to end; threads are
     * named {@code name} and the queue pair's number. An interrupt interrupts every connection's thread.
     */
    public static void serve(int connections, Accept accept, String name, Consumer<QueuePair> each)
            throws InterruptedException {
        Set<Thread> running = ConcurrentHashMap.newKeySet();
        int served = 0;
        try {
            while (connections == 0 || served < connections) {
                QueuePair qp = accept.next();
                if (qp == null) continue;
                served++;
                Thread t = new Thread(() -> {
                    try {
                        each.accept(qp);
                    } finally {
                        running.remove(Thread.currentThread());
                    }
                }, name + qp.qpn());
                t.setDaemon(true);
                running.add(t);
                t.start();
            }
            for (Thread t : List.copyOf(running)) t.join();
        } finally {
            for (Thread t : List.copyOf(running)) t.interrupt();
        }
    }
}
