import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart, Testing } from 'cdk8s';

/**
 * A fresh app for tests that synthesize in memory (`Testing.synth`). Its outdir is never written;
 * `Testing.app()` would make a temporary folder per app, thousands per test run, never removed.
 */
export function testApp(): App {
  return new App({ outdir: path.join(os.tmpdir(), 'virtual-exporters-tests-unused-outdir') });
}

/** A chart in a fresh test app, optionally with a namespace. */
export function testChart(namespace?: string): Chart {
  return new Chart(testApp(), 'test', { namespace });
}

type Manifest = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } } & Record<
  string,
  unknown
>;

/** Synthesizes the chart (running every construct validation) into plain objects. */
export function synth(chart: Chart): Manifest[] {
  return Testing.synth(chart) as Manifest[];
}

/** The one object of the given kind and name; fails the test when it is missing or doubled. */
export function findObject(objects: readonly Manifest[], kind: string, name: string): Manifest {
  const found = objects.filter((o) => o.kind === kind && o.metadata.name === name);
  if (found.length !== 1) {
    throw new Error(
      `expected one ${kind} ${name}, found ${found.length} in ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`,
    );
  }
  return found[0];
}
