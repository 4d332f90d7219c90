package io.rddp.conformance;

/**
 * One step of the scenario language: its name, the shape of its argument (checked when the catalogue loads) and what
 * it does.
 */
record StepDef(String name, Shape argument, StepHandler handler) {
}
