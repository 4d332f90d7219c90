package io.rddp.conformance;

import io.rddp.rnic.link.Link;
import io.rddp.sink.ErrorType;

import java.util.ArrayList;
import java.util.List;

/**
 * Grades what the DUT did in one scenario: its reaction against the accepted ones, the form of its Terminate, the
 * close after it, and the errors the sink model found in what it sent. Pure: every grading path is a unit test away.
 *
 * <ul>
 *   <li>a check of the scenario's own failed: fail;</li>
 *   <li>a positive scenario: strict, unless the DUT broke a MUST in what it sent (its findings): fail;</li>
 *   <li>an accepted reaction: its grade (strict, or lenient where the RFC's words allow another answer), failed when
 *       the DUT went on sending after its Terminate (RFC 5040 §5.4) or the Terminate's form breaks a MUST, lowered
 *       to non-strict when that form misses a SHOULD (RFC 5040 §4.8 Figure 10), and to lenient when the connection
 *       stayed open after the Terminate (RFC 5040 §6.2.1: the teardown is a MAY) or the DUT broke another MUST in the
 *       same exchange (its findings, shown: the scenario that proves that rule fails on it);</li>
 *   <li>an accepted RPC-over-RDMA answer (rpcrdma profile) whose exchange breaks a MUST of RFC 8166 (the
 *       analyzer's rpcrdma.* findings: its credits, its ERR_VERS range, a chunk overrun): fail;</li>
 *   <li>no accepted reaction: fail for a MUST, non-strict for a SHOULD, informational for a MAY.</li>
 * </ul>
 */
final class Judge {

    private Judge() {
    }

    /**
     * The facts a grade is decided on.
     *
     * @param failure      what the scenario's own checks found wrong, or null
     * @param observed     the DUT's reaction
     * @param findings     errors (MUST) the sink model found in what the DUT sent, the reaction's own checks aside
     * @param conduct      MUSTs the DUT broke in how it ended the stream: messages after its Terminate (RFC 5040 §5.4)
     * @param formErrors   MUSTs the DUT's Terminate broke in its form (a code outside the RFC tables)
     * @param formWarnings SHOULDs the DUT's Terminate missed in its form (M/D/R, the copied header, one segment)
     * @param reactionMs   how long a close after a Terminate was waited for
     */
    record Facts(String failure, Observed observed, List<String> findings, List<String> conduct,
                 List<String> formErrors, List<String> formWarnings, long reactionMs) {
        Facts {
            findings = List.copyOf(findings);
            conduct = List.copyOf(conduct);
            formErrors = List.copyOf(formErrors);
            formWarnings = List.copyOf(formWarnings);
        }
    }

    /** What the DUT did, reduced to what reactions are matched against. */
    record Observed(ErrorType terminate, boolean rejected, boolean repliedMpa, Link.PeerClose close, String text,
                    boolean silent, RpcReaction rpc) {
        Observed(ErrorType terminate, boolean rejected, boolean repliedMpa, Link.PeerClose close, String text,
                 boolean silent) {
            this(terminate, rejected, repliedMpa, close, text, silent, null);
        }

        /** With the RPC-over-RDMA answer a scenario of the rpcrdma profile saw (null: none observed). */
        Observed withRpc(RpcReaction r) {
            if (r == null) return this;
            return new Observed(terminate, rejected, repliedMpa, close, text + "; " + r.describe(), silent, r);
        }
    }

    /** A verdict with its grade and the notes that explain it. */
    record Judgement(Result.Verdict verdict, Result.Grade grade, List<String> notes) {
        Judgement {
            notes = List.copyOf(notes);
        }
    }

    static Judgement judge(ScenarioInfo info, Facts f) {
        List<String> notes = new ArrayList<>();
        if (f.failure() != null) {
            notes.add(f.failure());
            return new Judgement(Result.Verdict.FAIL, null, notes);
        }
        if (info.expected().isEmpty()) {
            if (f.findings().isEmpty()) return new Judgement(Result.Verdict.PASS, Result.Grade.STRICT, notes);
            notes.add("the DUT broke " + (f.findings().size() == 1 ? "a MUST" : f.findings().size() + " MUSTs")
                    + " in what it sent (see findings)");
            return new Judgement(Result.Verdict.FAIL, null, notes);
        }
        Reaction match = null;
        for (Reaction alt : info.expected()) {
            if (matches(alt, f.observed())) {
                match = alt;
                break;
            }
        }
        if (match == null) return unmatched(info, f, notes);
        if (!f.conduct().isEmpty()) {
            notes.add("the DUT went on after its reaction: " + String.join("; ", f.conduct()));
            return new Judgement(Result.Verdict.FAIL, null, notes);
        }
        if (match.kind() == Reaction.Kind.RPC) {
            // the answer is an RPC-over-RDMA exchange: a MUST of RFC 8166 it breaks (its credits, its ERR_VERS range,
            // a chunk it overran) is the answer's own form, as a Terminate's form is a Terminate's
            List<String> rpc = f.findings().stream().filter(x -> x.startsWith("rpcrdma.")).toList();
            if (!rpc.isEmpty()) {
                notes.add("the answer is accepted, but the exchange breaks a MUST of RFC 8166: " + String.join("; ",
                        rpc));
                return new Judgement(Result.Verdict.FAIL, null, notes);
            }
        }
        if (match.kind() == Reaction.Kind.TERMINATE && !f.formErrors().isEmpty()) {
            notes.add("the Terminate type is accepted, but its form breaks a MUST: " + String.join("; ",
                    f.formErrors()));
            return new Judgement(Result.Verdict.FAIL, null, notes);
        }
        Result.Grade grade = match.grade() == Reaction.Grade.STRICT ? Result.Grade.STRICT : Result.Grade.LENIENT;
        if (grade == Result.Grade.LENIENT) notes.add("accepted: " + match.reason());
        if (match.kind() == Reaction.Kind.TERMINATE) {
            if (!f.formWarnings().isEmpty()) {
                grade = Result.Grade.NON_STRICT;
                notes.add("the right Terminate type, but a SHOULD of its form missed: " + String.join("; ",
                        f.formWarnings()));
            } else if (grade == Result.Grade.STRICT && f.observed().close() == Link.PeerClose.OPEN) {
                grade = Result.Grade.LENIENT;
                notes.add("the connection stayed open " + f.reactionMs() + " ms after the Terminate (RFC 5040"
                        + " §6.2.1: \"it MAY immediately tear down the LLP Stream\")");
            }
        }
        if (grade == Result.Grade.STRICT && !f.findings().isEmpty()) {
            grade = Result.Grade.LENIENT;
            notes.add("the reaction is right, but the DUT broke " + (f.findings().size() == 1 ? "another MUST"
                    : f.findings().size() + " other MUSTs") + " in the exchange (see findings)");
        }
        return new Judgement(Result.Verdict.PASS, grade, notes);
    }

    private static Judgement unmatched(ScenarioInfo info, Facts f, List<String> notes) {
        String level = info.level();
        if (level.equals("SHOULD")) {
            notes.add("a SHOULD missed: expected " + info.expectedText());
            return new Judgement(Result.Verdict.PASS, Result.Grade.NON_STRICT, notes);
        }
        if (level.equals("MAY")) {
            notes.add("a MAY not taken: " + info.expectedText());
            return new Judgement(Result.Verdict.PASS, Result.Grade.INFORMATIONAL, notes);
        }
        notes.add("expected " + info.expectedText());
        ErrorType t = f.observed().terminate();
        if (t != null) {
            ErrorType swapped = new ErrorType(t.etype(), t.layer(), t.code());
            for (Reaction alt : info.expected()) {
                if (alt.matches(swapped)) {
                    notes.add("the Terminate is " + alt.describe() + " with Layer and EType swapped: the control"
                            + " word laid out as a little-endian C bitfield (RFC 5040 §4.8 Figure 7 puts Layer in"
                            + " the high nibble)");
                    break;
                }
            }
        }
        return new Judgement(Result.Verdict.FAIL, null, notes);
    }

    static boolean matches(Reaction alt, Observed o) {
        return switch (alt.kind()) {
            case TERMINATE -> o.terminate() != null && alt.matches(o.terminate());
            case REJECT -> o.terminate() == null && o.rejected();
            case CLOSE -> o.terminate() == null && !o.rejected() && o.close() != Link.PeerClose.OPEN;
            case SILENT_CLOSE -> o.silent() && o.close() != Link.PeerClose.OPEN;
            case CONTINUE -> o.terminate() == null && !o.rejected() && o.close() == Link.PeerClose.OPEN;
            // what came back at the RPC-over-RDMA level, whatever the connection did after it (RFC 8166 §4.5.3:
            // an RDMA_ERROR may come before the connection is lost)
            case RPC -> o.rpc() != null && o.rpc() == alt.rpc();
        };
    }
}
