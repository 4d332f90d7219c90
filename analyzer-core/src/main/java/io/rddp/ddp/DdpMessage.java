package io.rddp.ddp;

import java.util.List;

/**
 * What the segments of one DDP message showed, once the message completed or was given up. Facts only: the problems
 * say what was seen, a sink model decides what they mean.
 *
 * @param tagged       buffer model
 * @param qn           Queue Number (untagged), -1 for tagged
 * @param msn          Message Sequence Number (untagged), -1 for tagged
 * @param stag         STag (tagged), -1 for untagged
 * @param baseOffset   TO (tagged, unsigned 64-bit) or MO (untagged) of the first segment seen; a complete untagged
 *                     message starts at MO 0 (RFC 5041 §4.3)
 * @param length       payload bytes of all segments seen; equals "MO + payload length of the last segment"
 *                     (RFC 5041 §5.4) when nothing is missing
 * @param segments     number of segments
 * @param firstFrame   frame of the first segment seen
 * @param lastFrame    frame of the last segment seen
 * @param rsvdUlp      RsvdULP of the first segment (8 bits tagged, 40 bits untagged): RDMAP's control field lives in
 *                     its top octet (RFC 5040 §4.1)
 * @param end          why the record was produced
 * @param problems     the first {@link DdpMessageAssembler#MAX_PROBLEMS} problems seen, in order
 * @param problemCount all problems seen, including those not kept
 */
public record DdpMessage(boolean tagged, long qn, long msn, long stag, long baseOffset, long length, int segments,
                         long firstFrame, long lastFrame, long rsvdUlp, End end, List<Problem> problems,
                         int problemCount) {

    public DdpMessage {
        problems = List.copyOf(problems);
    }

    /** The top octet of RsvdULP, RDMAP's control field (RFC 5040 §4.1). */
    public int rsvdUlpFirstOctet() {
        return (int) (tagged ? rsvdUlp : rsvdUlp >>> 32);
    }

    public enum End {
        /** a segment with L set closed it (RFC 5041 §4.1) */
        COMPLETE,
        /** pushed out to keep the number of open messages under the assembler's cap */
        EVICTED,
        /** still open when the caller gave up on the stream (end of capture, gap) */
        ABANDONED
    }

    /**
     * One thing seen that a conforming sender would not have produced, or that makes the message incomplete.
     *
     * @param kind   what
     * @param frame  frame of the segment that showed it
     * @param detail the values involved, in plain words
     */
    public record Problem(Kind kind, long frame, String detail) {
        @Override
        public String toString() {
            return kind + " at frame " + frame + ": " + detail;
        }
    }

    public enum Kind {
        /** the first segment seen of an untagged message had MO != 0 (RFC 5041 §4.3: MO of the first octet is 0) */
        FIRST_MO_NOT_ZERO,
        /** an untagged segment's MO is not where the previous one ended (RFC 5041 §5.2) */
        MO_NOT_CONTIGUOUS,
        /** a tagged segment's TO is not where the previous one ended (RFC 5041 §5.2, §5.3 increasing TO order) */
        TO_NOT_CONTIGUOUS,
        /** RsvdULP differs from the first segment's (RFC 5041 §4.2, §4.3: same value in every segment) */
        RSVD_ULP_CHANGED,
        /** DV differs from the first segment's (RFC 5041 §4.1: same DV on the whole stream) */
        VERSION_CHANGED,
        /** untagged MO + payload length passes 2^32 - 1 (RFC 5041 §5.2: ULP Message Length < 2^32) */
        LENGTH_OVERFLOW,
        /** TO + payload length passes 2^64 - 1 (RFC 5041 §7.1, tagged check 5) */
        TO_WRAP,
        /** a segment of another message came before this message's last segment */
        INTERLEAVED
    }
}
