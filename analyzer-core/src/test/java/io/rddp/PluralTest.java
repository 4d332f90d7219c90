package io.rddp;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PluralTest {

    @Test
    void oneIsSingularAndEveryOtherCountPlural() {
        assertThat(Plural.of(1, "MPA stream")).isEqualTo("1 MPA stream");
        assertThat(Plural.of(0, "MPA stream")).isEqualTo("0 MPA streams");
        assertThat(Plural.of(2, "DDP message")).isEqualTo("2 DDP messages");
        assertThat(Plural.of(1, "failure or error", "failures and errors")).isEqualTo("1 failure or error");
        assertThat(Plural.of(3, "failure or error", "failures and errors")).isEqualTo("3 failures and errors");
    }
}
