package io.rddp.rnic;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A listener's bookkeeping for its {@link Admission}: its connections in arrival order with their sources, and the
 * choice of what to reset when a cap is reached. It never holds a queue pair's lock while it decides (it reads their
 * volatile state) and resets and destroys outside its own lock, so a queue pair may call it from its receive loop.
 */
final class AdmissionControl {

    private record Entry(QueuePair qp, InetAddress source) {
    }

    private final Rnic rnic;
    private final String name;
    private volatile Admission admission;
    /** the listener's connections not known to be gone, oldest first; guarded by this */
    private final List<Entry> entries = new ArrayList<>();

    AdmissionControl(Rnic rnic, String name, Admission admission) {
        this.rnic = rnic;
        this.name = name;
        this.admission = admission;
    }

    Admission admission() {
        return admission;
    }

    void admission(Admission a) {
        admission = a;
    }

    /** A connection from {@code source} arrived and is let in: resets what has to make room for it. */
    void arriving(InetAddress source) {
        List<Reset> resets = new ArrayList<>();
        List<QueuePair> gone;
        synchronized (this) {
            gone = prune();
            Admission a = admission;
            List<Entry> startup = new ArrayList<>();
            List<Entry> leaving = new ArrayList<>();
            for (Entry e : entries) {
                QueuePair.State st = e.qp.state;
                if (st == QueuePair.State.CONNECTING || st == QueuePair.State.PENDING_ACCEPT) startup.add(e);
                else if (st == QueuePair.State.ERROR || st == QueuePair.State.TERMINATE) leaving.add(e);
            }
            List<Entry> own = of(startup, source);
            Entry victim = null;
            String why = null;
            if (own.size() >= a.maxStartupPerSource()) {
                victim = startupVictim(own);
                why = source.getHostAddress() + " holds its " + a.maxStartupPerSource() + " connections in the MPA"
                        + " start-up";
            } else if (startup.size() >= a.maxStartup()) {
                victim = startupVictim(of(startup, biggest(startup)));
                why = a.maxStartup() + " connections are in the MPA start-up";
            }
            int total = entries.size();
            if (victim != null) {
                resets.add(new Reset(victim.qp, "reset in the MPA start-up to make room for a new connection from "
                        + source.getHostAddress() + ": " + why));
                entries.remove(victim);
                total--;
            }
            // connections on their way out still hold queue pairs: at the listener's total, the oldest go now
            for (int i = 0; total >= a.maxStartup() + a.maxEstablished() && i < leaving.size(); i++) {
                Entry e = leaving.get(i);
                resets.add(new Reset(e.qp, "reset while closing to make room for a new connection: the listener"
                        + " holds " + total + " connections"));
                entries.remove(e);
                total--;
            }
        }
        finish(resets, gone);
    }

    /** Tracks a connection the listener let in. */
    synchronized void add(QueuePair qp, InetAddress source) {
        entries.add(new Entry(qp, source));
    }

    /**
     * {@code qp} completed its MPA exchange: true when it may stay. At an established cap the longest-idle
     * connection with an idle timeout running is reset to make room; when there is none, {@code qp} is.
     */
    boolean established(QueuePair qp) {
        List<Reset> resets = new ArrayList<>();
        List<QueuePair> gone;
        boolean admitted = true;
        synchronized (this) {
            gone = prune();
            Admission a = admission;
            Entry self = null;
            List<Entry> est = new ArrayList<>();
            for (Entry e : entries) {
                if (e.qp == qp) {
                    self = e;
                } else {
                    QueuePair.State st = e.qp.state;
                    if (st == QueuePair.State.RTS || st == QueuePair.State.CLOSING) est.add(e);
                }
            }
            List<Entry> own = self == null ? List.of() : of(est, self.source);
            Entry victim = null;
            String why = null;
            if (self == null) {
                admitted = qp.state != QueuePair.State.CLOSED; // no longer tracked: it was reset meanwhile
            } else if (own.size() >= a.maxEstablishedPerSource()) {
                victim = longestIdle(own);
                why = self.source.getHostAddress() + " holds its " + a.maxEstablishedPerSource()
                        + " established connections";
            } else if (est.size() >= a.maxEstablished()) {
                victim = longestIdle(of(est, biggest(est)));
                if (victim == null) victim = longestIdle(est);
                why = a.maxEstablished() + " connections are established";
            }
            if (why != null && victim == null) {
                admitted = false;
                resets.add(new Reset(qp, "refused after its MPA exchange: " + why + " and none of them has an idle"
                        + " timeout running"));
                entries.remove(self);
            } else if (victim != null) {
                long idleMs = victim.qp.idleNs(System.nanoTime()) / 1_000_000L;
                resets.add(new Reset(victim.qp, "reset after " + idleMs + " ms without traffic to make room for an"
                        + " established connection from " + self.source.getHostAddress() + ": " + why));
                entries.remove(victim);
            }
        }
        finish(resets, gone);
        return admitted;
    }

    private record Reset(QueuePair qp, String why) {
    }

    /** Outside the lock: resets, then forgets connections nobody was handed (their completions with them). */
    private void finish(List<Reset> resets, List<QueuePair> gone) {
        for (Reset r : resets) {
            rnic.event(new AsyncEvent(AsyncEvent.Type.RESOURCE_LIMIT, r.qp.qpn, null, name + ": connection from "
                    + r.qp.link.remote() + " " + r.why));
            r.qp.drop(r.why);
            if (!r.qp.handedOut) rnic.destroy(r.qp);
        }
        for (QueuePair qp : gone) rnic.destroy(qp);
    }

    /** Drops entries whose connection is gone; returns those nobody was handed, to be destroyed. */
    private List<QueuePair> prune() {
        List<QueuePair> gone = new ArrayList<>();
        entries.removeIf(e -> {
            if (e.qp.state != QueuePair.State.CLOSED) return false;
            if (!e.qp.handedOut) gone.add(e.qp);
            return true;
        });
        return gone;
    }

    private static List<Entry> of(List<Entry> list, InetAddress source) {
        List<Entry> out = new ArrayList<>();
        for (Entry e : list) if (e.source.equals(source)) out.add(e);
        return out;
    }

    /** The source with the most entries of {@code list} (the earliest such on a tie). */
    private static InetAddress biggest(List<Entry> list) {
        Map<InetAddress, Integer> n = new HashMap<>();
        InetAddress best = null;
        int most = 0;
        for (Entry e : list) {
            int c = n.merge(e.source, 1, Integer::sum);
            if (c > most) {
                most = c;
                best = e.source;
            }
        }
        return best;
    }

    /** Of start-up connections, oldest first: one that sent no octet yet, else the oldest. */
    private static Entry startupVictim(List<Entry> list) {
        for (Entry e : list) {
            if (e.qp.state == QueuePair.State.CONNECTING && e.qp.inboundOctets == 0 && e.qp.link.available() == 0) {
                return e;
            }
        }
        return list.isEmpty() ? null : list.get(0);
    }

    /** The connection idle the longest among those with an idle timeout running, or null. */
    private static Entry longestIdle(List<Entry> list) {
        Entry best = null;
        for (Entry e : list) {
            if (e.qp.idleTimeout().isZero()) continue;
            if (best == null || e.qp.lastActivityNs < best.qp.lastActivityNs) best = e;
        }
        return best;
    }
}
