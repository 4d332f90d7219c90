package io.rddp.analyze;

import io.rddp.mpa.MpaDecoder;
import io.rddp.rpcrdma.RpcRdmaStage;
import io.rddp.sink.SinkModel;
import io.rddp.tcp.TcpReassembler;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every cap that keeps an analysis bounded whatever the capture holds, in one place: hostile or merely huge
 * captures are analysed with these caps instead of failing, and each layer says in a warning what it dropped, and
 * where, when one is reached. Memory grows with the connections tracked, never with the file.
 *
 * @param tcp              TCP reassembly: connections tracked (the least recently active is evicted beyond it, and
 *                         every layer above frees that stream), out-of-order bytes and chunks buffered per direction
 *                         before a gap is declared, retransmission history compared for conflicts
 * @param sink             the Data Sink model: open messages, outstanding Read/Atomic Requests, tagged buffers
 *                         mapped and ranges per map per direction, STags learned from the traffic
 * @param reportedStreams  streams listed in the report (later ones are analysed and counted)
 * @param violations       violations kept for the report (later ones are counted)
 * @param notices          notices kept for the report (later ones are counted)
 */
public record AnalysisLimits(TcpReassembler.Limits tcp, SinkModel.Options sink, int reportedStreams, int violations,
                             int notices) {

    public AnalysisLimits {
        if (reportedStreams < 1 || violations < 1 || notices < 1) {
            throw new IllegalArgumentException("report limits must be positive");
        }
    }

    public static AnalysisLimits defaults() {
        return new AnalysisLimits(TcpReassembler.Limits.defaults(), SinkModel.Options.defaults(), 10_000, 100_000,
                Analyzer.MAX_NOTICES);
    }

    public AnalysisLimits withTcp(TcpReassembler.Limits t) {
        return new AnalysisLimits(t, sink, reportedStreams, violations, notices);
    }

    public AnalysisLimits withSink(SinkModel.Options s) {
        return new AnalysisLimits(tcp, s, reportedStreams, violations, notices);
    }

    public AnalysisLimits withViolations(int n) {
        return new AnalysisLimits(tcp, sink, reportedStreams, n, notices);
    }

    public AnalysisLimits withReportedStreams(int n) {
        return new AnalysisLimits(tcp, sink, n, violations, notices);
    }

    /** Name → value of every cap, in the order the report prints them (fixed ones included). */
    public Map<String, Long> describe() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("tcp.connections", (long) tcp.maxConnections());
        m.put("tcp.out-of-order-bytes", tcp.maxBufferedBytes());
        m.put("tcp.out-of-order-chunks", (long) tcp.maxBufferedSegments());
        m.put("tcp.retransmit-check-bytes", (long) tcp.retransmitCheckBytes());
        m.put("mpa.search-bytes", (long) MpaDecoder.MAX_SEARCH);
        m.put("sink.open-messages", (long) sink.maxOpenMessages());
        m.put("sink.outstanding-reads", (long) sink.maxOutstanding());
        m.put("sink.tagged-buffers", (long) sink.maxTaggedBuffers());
        m.put("sink.ranges", (long) sink.maxRanges());
        m.put("sink.learned-stags", (long) sink.maxLearnedStags());
        m.put("sink.reports-per-check", (long) sink.maxReportsPerCheck());
        m.put("rpcrdma.transactions", (long) RpcRdmaStage.MAX_TRANSACTIONS);
        m.put("rpcrdma.rebuilt-message-bytes", (long) RpcRdmaStage.MAX_RETAINED);
        m.put("report.streams", (long) reportedStreams);
        m.put("report.violations", (long) violations);
        m.put("report.notices", (long) notices);
        return m;
    }
}
