package io.rddp.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.rddp.Notice;
import io.rddp.analyze.Analysis;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.Opcode;
import io.rddp.report.JsonReports;
import io.rddp.sink.ErrorType;
import io.rddp.sink.Severity;
import io.rddp.sink.StreamSummary;
import io.rddp.sink.Violation;
import io.rddp.tcp.Direction;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/** {@code rddp analyze --format json}: one report object per capture, an array of them for several. */
final class AnalysisJson {

    private AnalysisJson() {
    }

    /** One report object; several files give a JSON array of them. */
    static void json(List<FileResult> all, boolean many, OutputStream os) throws IOException {
        JsonReports.write(os, j -> {
            if (many) j.writeStartArray();
            for (FileResult r : all) json(r, j);
            if (many) j.writeEndArray();
        });
    }

    private static void json(FileResult r, JsonGenerator j) throws IOException {
        Analysis a = r.analysis();
        j.writeStartObject();
        j.writeStringField("file", r.file());
        j.writeStringField("status", r.status());
        if (a == null) {
            j.writeStringField("error", r.error());
            j.writeEndObject();
            return;
        }
        if (r.nothing() != null) j.writeStringField("nothing", r.nothing());
        j.writeObjectFieldStart("summary");
        j.writeNumberField("frames", a.frames());
        j.writeNumberField("streams", a.streams().size());
        j.writeNumberField("pdus", a.pdus());
        j.writeNumberField("messages", a.messages());
        j.writeNumberField("errors", a.count(Severity.ERROR));
        j.writeNumberField("warnings", a.count(Severity.WARNING));
        j.writeNumberField("info", a.count(Severity.INFO));
        if (a.error() != null) j.writeStringField("incomplete", a.error());
        j.writeEndObject();
        j.writeObjectFieldStart("limits");
        for (var e : a.limits().entrySet()) j.writeNumberField(e.getKey(), e.getValue());
        j.writeEndObject();
        j.writeArrayFieldStart("streams");
        for (Analysis.Stream s : a.streams()) {
            j.writeStartObject();
            j.writeNumberField("stream", s.index());
            if (s.summary().rpcRdmaMessages() > 0) j.writeNumberField("rpcRdmaMessages", s.summary().rpcRdmaMessages());
            j.writeStringField("client", s.client().toString());
            j.writeStringField("server", s.server().toString());
            mpaJson("mpaRequest", s.summary().request(), j);
            mpaJson("mpaReply", s.summary().reply(), j);
            j.writeArrayFieldStart("closed");
            for (String c : r.closes().getOrDefault(s.index(), List.of())) j.writeString(c);
            j.writeEndArray();
            for (Direction d : Direction.values()) {
                StreamSummary.Counters c = s.summary().counters(d);
                j.writeObjectFieldStart(d == Direction.CLIENT_TO_SERVER ? "clientToServer" : "serverToClient");
                j.writeNumberField("messages", c.messages());
                j.writeObjectFieldStart("messagesByOpcode");
                for (Map.Entry<Opcode, Long> e : c.messagesByOpcode().entrySet()) j.writeNumberField(e.getKey().rfcName(), e.getValue());
                j.writeEndObject();
                j.writeNumberField("bytesPlaced", c.bytesPlaced());
                j.writeNumberField("bytesDelivered", c.bytesDelivered());
                if (c.terminateFrame() > 0) j.writeNumberField("terminateFrame", c.terminateFrame());
                j.writeEndObject();
            }
            j.writeEndObject();
        }
        j.writeEndArray();
        j.writeArrayFieldStart("violations");
        for (Violation v : a.violations()) {
            j.writeStartObject();
            j.writeNumberField("frame", v.frame());
            j.writeArrayFieldStart("frames");
            for (long f : v.frames()) j.writeNumber(f);
            j.writeEndArray();
            j.writeNumberField("stream", v.stream());
            if (v.direction() != null) j.writeStringField("direction", v.direction() == Direction.CLIENT_TO_SERVER ? "client-to-server" : "server-to-client");
            j.writeStringField("layer", v.layer().name());
            j.writeStringField("check", v.id());
            j.writeStringField("rfc", v.rfc());
            j.writeStringField("section", v.section());
            ErrorType e = v.errorType();
            if (e == null) {
                j.writeNullField("etype");
            } else {
                j.writeObjectFieldStart("etype");
                j.writeNumberField("layer", e.layer());
                j.writeNumberField("etype", e.etype());
                j.writeNumberField("code", e.code());
                j.writeEndObject();
            }
            j.writeStringField("name", e != null ? e.name() : v.check().title());
            j.writeStringField("severity", v.severity().name().toLowerCase());
            j.writeStringField("message", v.message());
            j.writeEndObject();
        }
        j.writeEndArray();
        j.writeArrayFieldStart("notices");
        for (Notice n : a.notices()) {
            j.writeStartObject();
            j.writeStringField("severity", n.severity().name().toLowerCase());
            j.writeStringField("layer", n.layer());
            if (n.frame() > 0) j.writeNumberField("frame", n.frame());
            if (n.stream() >= 0) j.writeNumberField("stream", n.stream());
            if (n.offset() >= 0) j.writeNumberField("offset", n.offset());
            j.writeStringField("message", n.message());
            j.writeEndObject();
        }
        j.writeEndArray();
        j.writeNumberField("noticesDropped", a.noticesDropped());
        j.writeEndObject();
    }

    /** The MPA Request or Reply of a stream: what the text report's MPA line shows. */
    private static void mpaJson(String key, MpaStartFrame f, JsonGenerator j) throws IOException {
        if (f == null) return;
        j.writeObjectFieldStart(key);
        j.writeNumberField("rev", f.revision());
        j.writeBooleanField("markers", f.markers());
        j.writeBooleanField("crc", f.crc());
        j.writeBooleanField("reject", f.reject());
        if (f.enhanced() != null) {
            j.writeNumberField("ird", f.enhanced().ird());
            j.writeNumberField("ord", f.enhanced().ord());
            j.writeBooleanField("peerToPeer", f.enhanced().peerToPeer());
        }
        j.writeEndObject();
    }
}
