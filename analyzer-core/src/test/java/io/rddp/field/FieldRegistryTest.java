package io.rddp.field;

import io.rddp.filter.FilterFields;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The registry is the one list of fields: every declared field is in it once, named, described and cited. */
class FieldRegistryTest {

    private static final List<Class<?>> DECLARATIONS = List.of(FrameField.class, MpaField.class, DdpField.class,
            RdmapField.class, AtomicField.class, RpcRdmaField.class, RpcField.class, ChunkField.class,
            EthernetField.class, VlanField.class, IpField.class, Ipv6Field.class, TcpField.class, CaptureField.class);

    @Test
    void everyFieldConstantOfTheDeclarationClassesIsRegisteredOnceAndNothingElseIs() throws Exception {
        List<Field> declared = new ArrayList<>();
        List<Layer> layers = new ArrayList<>();
        for (Class<?> c : DECLARATIONS) {
            for (java.lang.reflect.Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) || !Modifier.isPublic(f.getModifiers())) continue;
                if (f.getType() == Field.class) declared.add((Field) f.get(null));
                if (f.getType() == Layer.class) layers.add((Layer) f.get(null));
            }
        }
        assertThat(FieldRegistry.fields()).containsExactlyInAnyOrderElementsOf(declared).doesNotHaveDuplicates();
        assertThat(FieldRegistry.layers()).containsExactlyInAnyOrderElementsOf(layers).doesNotHaveDuplicates();
    }

    @Test
    void everyFieldIsDescribedCitedAndHasAFilterName() {
        for (Field f : FieldRegistry.fields()) {
            assertThat(f.description()).as(f.key()).isNotBlank();
            assertThat(f.label()).as(f.key()).isNotBlank();
            assertThat(f.rfc()).as(f.key()).matches("-|RFC \\d{3,4} §\\d+(\\.\\d+)*.*|RFC \\d{4}, .*|IEEE 802\\.(3|1Q) §\\d+(\\.\\d+)*");
            assertThat(FieldRegistry.layers()).as(f.key()).contains(f.layer());
            // a field of a template is only reachable where a layer holds the template
            assertThat(FieldRegistry.filterNamesOf(f)).as(f.key()).isNotEmpty();
        }
    }

    @Test
    void aFieldKeyIsItsFilterNameUnlessItsLayerIsATemplate() {
        for (Field f : FieldRegistry.fields()) {
            if (f.layer().shape() == Layer.Shape.TEMPLATE) {
                assertThat(FieldRegistry.byName(f.key())).as(f.key()).isNull();
            } else {
                assertThat(FieldRegistry.field(f.key())).as(f.key()).isSameAs(f);
            }
        }
        assertThat(FieldRegistry.filterNamesOf(RpcRdmaField.HANDLE)).containsExactly("rpcrdma.reads.handle",
                "rpcrdma.writes.segments.handle", "rpcrdma.reply.segments.handle");
        assertThat(FieldRegistry.filterNamesOf(DdpField.STAG)).containsExactly("ddp.stag",
                "rdmap.terminate.ddpHeader.stag");
    }

    @Test
    void theFilterLanguageKnowsExactlyTheRegistrysNamesWithTheirLabels() {
        List<String> names = FieldRegistry.filterNames().stream().map(FilterName::name).toList();
        assertThat(FilterFields.all()).extracting(FilterFields.Field::name)
                .containsExactlyInAnyOrderElementsOf(names);
        assertThat(FilterFields.get("ddp.stag").description()).isEqualTo("STag");
        assertThat(FilterFields.get("ddp.stag").kind()).isEqualTo(FilterFields.Kind.NUMBER);
        assertThat(FilterFields.get("rdmap.atomicRequest.remoteTo").kind()).isEqualTo(FilterFields.Kind.NUMBER);
        assertThat(FilterFields.get("time").kind()).isEqualTo(FilterFields.Kind.TEXT);
        assertThat(FilterFields.get("rpcrdma.reply").kind()).isEqualTo(FilterFields.Kind.LAYER);
        // lists are prefixes, not layers
        assertThat(FilterFields.get("rpcrdma.reads")).isNull();
        // the frame's headers are layers, as in Wireshark
        assertThat(FilterFields.get("tcp").kind()).isEqualTo(FilterFields.Kind.LAYER);
        assertThat(FilterFields.get("tcp.flags.syn").kind()).isEqualTo(FilterFields.Kind.BOOLEAN);
        assertThat(FilterFields.get("eth.src").kind()).isEqualTo(FilterFields.Kind.ETHER);
        assertThat(FilterFields.get("ip.src").description()).isEqualTo("Source Address");
    }

    @Test
    void wiresharksHexFieldsKeepTheirWidth() {
        assertThat(EthernetField.TYPE.hexDigits()).isEqualTo(4);
        assertThat(IpField.DSFIELD.hexDigits()).isEqualTo(2);
        assertThat(Ipv6Field.FLOW.hexDigits()).isEqualTo(6);
        assertThat(TcpField.FLAGS.hexDigits()).isEqualTo(4);
        assertThat(DdpField.STAG.hexDigits()).isEqualTo(8);
        assertThat(DdpField.TO.hexDigits()).isEqualTo(16);
    }

    @Test
    void identifiersAndSixtyFourBitValuesAreShownInHexCountsInDecimal() {
        assertThat(DdpField.STAG.base()).isEqualTo(Base.HEX);
        assertThat(MpaField.CRC.base()).isEqualTo(Base.HEX);
        assertThat(RpcRdmaField.XID.base()).isEqualTo(Base.HEX);
        assertThat(DdpField.TO.type()).isEqualTo(FieldType.UINT64);
        assertThat(DdpField.MSN.base()).isEqualTo(Base.DEC);
        assertThat(RdmapField.OPCODE_NAME.base()).isEqualTo(Base.NONE);
    }
}
