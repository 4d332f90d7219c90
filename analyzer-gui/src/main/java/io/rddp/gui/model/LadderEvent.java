package io.rddp.gui.model;

/**
 * One arrow of the ladder diagram: a message from one endpoint to the other (an MPA Request/Reply, a Send, an RDMA
 * Write, a Read Request with its Read Response, an Atomic Request with its Response, a Terminate).
 *
 * @param serverToClient which way the arrow points
 * @param firstFrame     first frame of the message
 * @param lastFrame      frame that completed it
 * @param label          what the arrow says, e.g. "Read Request 64 B"
 * @param kind           the opcode's short name, "MPA Request"/"MPA Reply"
 * @param answers        for a response: the firstFrame of the request it answers, else -1
 * @param violation      a violation was reported at one of its frames
 */
public record LadderEvent(boolean serverToClient, long firstFrame, long lastFrame, String label, String kind,
                          long answers, boolean violation) {
}
