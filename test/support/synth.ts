import { Chart, Testing } from 'cdk8s';

/** A chart in a fresh test app, optionally with a namespace. */
export function testChart(namespace?: string): Chart {
  return new Chart(Testing.app(), 'test', { namespace });
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
