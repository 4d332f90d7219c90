package io.rddp.conformance.rpcrdma;

import java.util.ArrayList;
import java.util.List;

/**
 * Answers that came while the Requester waited for another XID. A Responder may answer calls in any order (RFC
 * 8166 §4.1 pairs a reply with its call by XID alone, and Linux's svcrdma answers a burst out of order), so an
 * answer set aside is taken when its XID is waited for.
 */
final class SetAside {
    private final List<Answer> answers = new ArrayList<>();

    void add(Answer a) {
        answers.add(a);
    }

    /** The first answer set aside whose header carries {@code xid}, removed; null when none. */
    Answer take(long xid) {
        for (int i = 0; i < answers.size(); i++) {
            Answer a = answers.get(i);
            if (a.header() != null && a.header().xid() == xid) return answers.remove(i);
        }
        return null;
    }

    /** What is set aside, in arrival order. */
    List<Answer> all() {
        return List.copyOf(answers);
    }
}
