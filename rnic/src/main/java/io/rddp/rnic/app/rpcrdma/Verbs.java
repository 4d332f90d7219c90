package io.rddp.rnic.app.rpcrdma;

import io.rddp.rnic.QueuePair;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.WcOpcode;
import io.rddp.rnic.WcStatus;
import io.rddp.rnic.WorkCompletion;
import io.rddp.rnic.WorkRequest;

import java.util.List;

/**
 * Posting a work request and waiting for its completion, and waiting for the next receive, on one queue pair: both
 * ends of RPC-over-RDMA here work one transaction at a time, so every Send, RDMA Read and RDMA Write is awaited
 * before the next step and a poll of the queue pair's completions sees only receives.
 */
final class Verbs {
    static final long WAIT_MS = 10_000;

    /** Why a connection's RPC-over-RDMA exchange ended. */
    static final class Failure extends Exception {
        Failure(String message) {
            super(message);
        }
    }

    private final Rnic rnic;
    private final QueuePair qp;

    Verbs(Rnic rnic, QueuePair qp) {
        this.rnic = rnic;
        this.qp = qp;
    }

    QueuePair qp() {
        return qp;
    }

    Rnic rnic() {
        return rnic;
    }

    /** Posts {@code wr} (its id is replaced by a fresh one) and waits until it completed successfully. */
    void run(WorkRequest wr, String what) throws Failure, InterruptedException {
        long id = rnic.nextWrId();
        qp.postSend(new WorkRequest(id, wr.op(), wr.local(), wr.localOffset(), wr.length(), wr.inline(),
                wr.remoteStag(), wr.remoteTo(), wr.invalidateStag(), wr.immediate(), wr.compare(), wr.swapOrAdd(),
                wr.solicited(), true));
        WorkCompletion wc = rnic.completions().take(id, WAIT_MS);
        if (wc == null) throw new Failure(what + " did not complete within " + WAIT_MS / 1000 + " s" + reason());
        if (wc.status() != WcStatus.SUCCESS) {
            throw new Failure(what + " failed: " + wc.status().wireName() + (wc.detail() != null ? " ("
                    + wc.detail() + ")" : "") + reason());
        }
    }

    void send(byte[] message, String what) throws Failure, InterruptedException {
        run(WorkRequest.sendInline(0, message, false), what);
    }

    /**
     * The next received message's octets, or null when {@code endOk} and the peer closed (or the wait timed out with
     * {@code waitMs} < 0 meaning "forever").
     */
    byte[] receive(String what, boolean endOk, long waitMs) throws Failure, InterruptedException {
        long deadline = System.nanoTime() + Math.max(0, waitMs) * 1_000_000L;
        while (true) {
            List<WorkCompletion> wcs = rnic.completions().poll(qp.qpn(), 1, 1, 200);
            if (!wcs.isEmpty()) {
                WorkCompletion wc = wcs.get(0);
                if (wc.status() == WcStatus.WR_FLUSH_ERR && endOk) return null;
                if (wc.status() != WcStatus.SUCCESS || wc.opcode() != WcOpcode.RECV) {
                    throw new Failure("unexpected " + wc + " while waiting for " + what + reason());
                }
                if (wc.data() == null || wc.data().length != wc.byteLength()) {
                    throw new Failure("a receive of " + wc.byteLength() + " octets is larger than its buffer");
                }
                return wc.data();
            }
            QueuePair.State st = qp.state();
            if (st == QueuePair.State.CLOSED || st == QueuePair.State.ERROR || st == QueuePair.State.TERMINATE) {
                if (endOk && qp.failure() == null) return null;
                throw new Failure("the connection ended while waiting for " + what + reason());
            }
            if (waitMs >= 0 && System.nanoTime() > deadline) {
                throw new Failure(what + " did not arrive within " + waitMs / 1000 + " s");
            }
        }
    }

    String reason() {
        return qp.failure() != null ? " [" + qp.failure() + "]" : "";
    }
}
