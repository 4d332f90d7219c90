package io.rddp.cli;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rddp.decode.PduFields;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JSON lines writer formats values itself (no generator). Its output must stay byte for byte what Jackson's
 * generator wrote before, which the golden decodes of the bundled captures hold for real PDUs; these properties
 * hold it for the values those captures never carry (escapes, non-ASCII, extreme numbers, long strings).
 */
class JsonlWriterTest {

    @Property(tries = 2000)
    void stringsAreEscapedAsJacksonEscapesThem(@ForAll("texts") String s) throws IOException {
        assertThat(ours(w -> w.text(null, null, s))).isEqualTo(jackson(g -> g.writeString(s)));
    }

    @Property(tries = 500)
    void loneSurrogatesGiveJsonThatReadsBackToTheSameString(@ForAll("withLoneSurrogates") String s)
            throws IOException {
        String json = ours(w -> w.text(null, null, s));
        assertThat(new ObjectMapper().readValue(json, String.class)).isEqualTo(s);
    }

    @Test
    void aStringLongerThanTheBufferIsWrittenWhole() throws IOException {
        String s = "é\"\n".repeat(40_000); // 160 000 bytes as JSON, more than the 64 KiB buffer
        assertThat(ours(w -> w.text(null, null, s))).isEqualTo(jackson(g -> g.writeString(s)));
    }

    @Property(tries = 2000)
    void numbersAreDecimalAsLongToString(@ForAll("longs") long v) {
        assertThat(ours(w -> w.number(null, null, v))).isEqualTo(Long.toString(v));
    }

    @Property(tries = 2000)
    void identifiersAndSixtyFourBitValuesAreQuotedHex(@ForAll("longs") long v) {
        assertThat(ours(w -> w.id32(null, null, v))).isEqualTo('"' + JsonlWriter.hex32(v) + '"');
        assertThat(ours(w -> w.unsigned64(null, null, v))).isEqualTo('"' + JsonlWriter.hex64(v) + '"');
    }

    @Property(tries = 2000)
    void timesAreWhatPduFieldsWrites(@ForAll("longs") long nanos) {
        assertThat(ours(w -> w.time(null, null, nanos))).isEqualTo('"' + PduFields.epochSeconds(nanos) + '"');
    }

    @Test
    void groupsListsAndFieldsGiveTheGeneratorsBytes() throws IOException {
        String ours = ours(w -> {
            w.begin(null, "root");
            w.number("frame", "Frame", 7);
            w.begin("mpa", "MPA");
            w.hex("privateData", "Private data", new byte[]{0, 1, (byte) 0xab, (byte) 0xff});
            w.hex("empty", "Empty", new byte[0]);
            w.boolOrNull("crcOk", "CRC good", null);
            w.boolOrNull("crcGood", "CRC good", true);
            w.end();
            w.beginList("chunks", "Chunks");
            w.begin(null, "chunk");
            w.id32("handle", "Handle", 0xdeadbeefL);
            w.end();
            w.number(null, "n", -3);
            w.beginList(null, "empty list");
            w.endList();
            w.endList();
            w.bool("last", "Last", false);
            w.text("name", "Name", "é\u0001");
            w.end();
        });
        String jackson = jackson(g -> {
            g.writeStartObject();
            g.writeNumberField("frame", 7);
            g.writeObjectFieldStart("mpa");
            g.writeStringField("privateData", "0001abff");
            g.writeStringField("empty", "");
            g.writeNullField("crcOk");
            g.writeBooleanField("crcGood", true);
            g.writeEndObject();
            g.writeArrayFieldStart("chunks");
            g.writeStartObject();
            g.writeStringField("handle", "0xdeadbeef");
            g.writeEndObject();
            g.writeNumber(-3);
            g.writeStartArray();
            g.writeEndArray();
            g.writeEndArray();
            g.writeBooleanField("last", false);
            g.writeStringField("name", "é\u0001");
            g.writeEndObject();
        });
        assertThat(ours).isEqualTo(jackson);
    }

    @Test
    void anEmptyJsonArrayIsStillAnArray() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new JsonlWriter(bytes, true).close();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("[]\n");
    }

    @Provide
    Arbitrary<String> texts() {
        // ASCII with every control character, the BMP without surrogates, whole supplementary characters, anything
        Arbitrary<String> ascii = Arbitraries.strings().withCharRange('\u0000', '\u007f').ofMaxLength(40);
        Arbitrary<String> bmp = Arbitraries.strings().withCharRange('\u0000', '\ud7ff').withCharRange('\ue000', '\uffff')
                .ofMaxLength(40);
        Arbitrary<String> supplementary = Arbitraries.integers().between(0x10000, 0x10ffff).list().ofMaxSize(8)
                .map(cps -> cps.stream().collect(StringBuilder::new, StringBuilder::appendCodePoint,
                        StringBuilder::append).toString());
        return Arbitraries.oneOf(ascii, bmp, supplementary, Arbitraries.strings().all().ofMaxLength(20));
    }

    @Provide
    Arbitrary<String> withLoneSurrogates() {
        return Arbitraries.strings().withCharRange('a', 'c').withCharRange('\ud800', '\udfff').ofMinLength(1)
                .ofMaxLength(12);
    }

    @Provide
    Arbitrary<Long> longs() {
        return Arbitraries.oneOf(Arbitraries.of(0L, 1L, -1L, 9L, 10L, 999_999_999L, 1_000_000_000L, -1_000_000_000L,
                Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, 99L, 100L, (long) Integer.MAX_VALUE,
                Integer.MAX_VALUE + 1L, -(long) Integer.MAX_VALUE), Arbitraries.longs());
    }

    interface Fields {
        void write(JsonlWriter w);
    }

    interface Generator {
        void write(JsonGenerator g) throws IOException;
    }

    private static String ours(Fields fields) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonlWriter w = new JsonlWriter(bytes)) {
            fields.write(w);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String jackson(Generator generator) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator g = JsonFactory.builder().build().createGenerator(bytes, JsonEncoding.UTF8)) {
            generator.write(g);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
