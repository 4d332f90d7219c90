package io.rddp.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * Runs scenarios concurrently on lanes of one DUT ({@link Dut#lane(int)}), as a sequential run would judge them:
 * <ul>
 * <li>a scenario that must have the DUT alone ({@link ScenarioInfo#alone()}) waits until every running one ended,
 * runs alone, and the others wait for it;</li>
 * <li>results are reported in the order of the list: one is reported once every scenario that ran alongside it has
 * ended, so that none of them can still take the DUT down under it;</li>
 * <li>when the DUT stops answering during a scenario (dead, silent, its control channel gone), that scenario and every
 * one that ran alongside it run again alone, where the runner's restart hook may bring the DUT back: a verdict never
 * rests on a DUT another scenario killed. The lanes then join the DUT again.</li>
 * </ul>
 */
final class Jobs {

    private final Runner main;
    private final List<Scenario> scenarios;
    private final Consumer<Result> progress;
    private final Result[] results;
    private final long[] started, ended;
    private final boolean[] done, down;
    private int next;
    private final List<Dut> lanes = new ArrayList<>();
    private final BlockingQueue<Runner> free = new LinkedBlockingQueue<>();
    private final List<Future<?>> running = new ArrayList<>();

    private Jobs(Runner main, List<Scenario> scenarios, Consumer<Result> progress) {
        this.main = main;
        this.scenarios = scenarios;
        this.progress = progress;
        int n = scenarios.size();
        results = new Result[n];
        started = new long[n];
        ended = new long[n];
        done = new boolean[n];
        down = new boolean[n];
    }

    static List<Result> run(Runner main, int jobs, List<Scenario> scenarios, Consumer<Result> progress) {
        return new Jobs(main, scenarios, progress).run(jobs);
    }

    private List<Result> run(int jobs) {
        openLanes(jobs);
        ExecutorService pool = Executors.newFixedThreadPool(jobs, r -> {
            Thread t = new Thread(r, "rddp-conform-job");
            t.setDaemon(true);
            return t;
        });
        int restarts = main.restarts();
        try {
            for (int i = 0; i < scenarios.size(); i++) {
                Scenario s = scenarios.get(i);
                if (s.info().alone() != null) {
                    settle();
                    runAlone(i, null);
                } else {
                    Runner lane = free.take();
                    if (anyDown()) {
                        free.put(lane);
                        settle();
                        lane = free.take();
                    }
                    Runner l = lane;
                    int at = i;
                    synchronized (this) {
                        started[at] = System.nanoTime();
                    }
                    running.add(pool.submit(() -> {
                        try {
                            Result r = l.run(s);
                            finished(at, r, l.tookDutDown());
                        } finally {
                            free.add(l);
                        }
                    }));
                }
                if (main.restarts() != restarts) {
                    restarts = main.restarts();
                    settle();
                    reopenLanes(jobs);
                }
            }
            settle();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            pool.shutdownNow();
            for (int k = 1; k < lanes.size(); k++) lanes.get(k).close();
        }
        List<Result> out = new ArrayList<>();
        for (Result r : results) if (r != null) out.add(r);
        return out;
    }

    /** Lane 0 is the runner's own DUT; lanes 1.. join it. A lane that cannot be opened is left out, and said so. */
    private void openLanes(int jobs) {
        lanes.clear();
        lanes.add(main.dut());
        free.add(main.lane(main.dut()));
        for (int k = 1; k < jobs; k++) {
            try {
                Dut d = main.dut().lane(k);
                lanes.add(d);
                free.add(main.lane(d));
            } catch (Exception e) {
                main.notice().accept("rddp conform: lane " + k + " of " + jobs + " could not be opened (" + e.getMessage()
                        + "): " + lanes.size() + " jobs");
                break;
            }
        }
    }

    /** After a restart of the DUT the companions' sessions are gone: open them again (every lane is free now). */
    private void reopenLanes(int jobs) {
        free.clear();
        for (int k = 1; k < lanes.size(); k++) lanes.get(k).close();
        openLanes(jobs);
    }

    /** Waits for every running scenario, runs again alone those the DUT's going down concerns, reports what it can. */
    private void settle() throws InterruptedException {
        for (Future<?> f : running) {
            try {
                f.get();
            } catch (java.util.concurrent.ExecutionException e) {
                // a lane's scenario threw past the runner: it has no result and is run again alone below
            }
        }
        running.clear();
        List<Integer> again = new ArrayList<>();
        synchronized (this) {
            for (int i = 0; i < scenarios.size(); i++) {
                if (started[i] != 0 && (!done[i] || down[i] || overlapsDown(i))) again.add(i);
            }
        }
        for (int i : again) {
            runAlone(i, "ran again alone: the DUT stopped answering while it ran alongside other scenarios");
        }
        emit();
    }

    private void runAlone(int i, String why) {
        synchronized (this) {
            started[i] = System.nanoTime();
            done[i] = false;
            down[i] = false;
        }
        Result r = main.run(scenarios.get(i));
        if (why != null) {
            List<String> notes = new ArrayList<>(r.notes());
            notes.add(why);
            r = r.withNotes(notes);
        }
        finished(i, r, false);
    }

    private synchronized void finished(int i, Result r, boolean tookDown) {
        results[i] = r;
        ended[i] = System.nanoTime();
        done[i] = true;
        down[i] = tookDown;
        emit();
    }

    private synchronized boolean anyDown() {
        for (boolean d : down) if (d) return true;
        return false;
    }

    /** Whether a scenario that ran alongside {@code i} took the DUT down. */
    private boolean overlapsDown(int i) {
        for (int j = 0; j < scenarios.size(); j++) {
            if (j != i && down[j] && overlap(i, j)) return true;
        }
        return false;
    }

    private boolean overlap(int i, int j) {
        long iEnd = done[i] ? ended[i] : Long.MAX_VALUE, jEnd = done[j] ? ended[j] : Long.MAX_VALUE;
        return started[i] != 0 && started[j] != 0 && started[i] < jEnd && started[j] < iEnd;
    }

    /**
     * Reports, in order, every result that is final: it is done, did not take the DUT down, and every scenario that
     * ran alongside it is done without taking the DUT down.
     */
    private synchronized void emit() {
        while (next < scenarios.size() && settled(next)) progress.accept(results[next++]);
    }

    private boolean settled(int i) {
        if (!done[i] || down[i]) return false;
        for (int j = 0; j < scenarios.size(); j++) {
            if (j == i || started[j] == 0) continue;
            if (!done[j] && started[j] < ended[i]) return false;
            if (down[j] && overlap(i, j)) return false;
        }
        return true;
    }
}
