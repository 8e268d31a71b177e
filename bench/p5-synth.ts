/**
 * P5 synth: 200 pools (a VirtualTargetClass and an ExporterSet each) synthesized through our cdk8s
 * `QemuPool` construct — typed props, synth-time validation, the provisioner's parameter check — vs
 * the very same 400 objects added to a chart as raw `ApiObject`s (the JSON the constructs produced).
 * Both sides run `app.synthYaml()` on a fresh App, in this process, alternately (31 rounds, 7 in quick
 * mode, after a warm-up round). Figure = median constructs time / median raw time; target ≤ 1.5×.
 * Garbage collection is part of each side's cost, which makes the figure move with the machine's load;
 * the ratio of the fastest rounds is reported beside it.
 */
import { ApiObject, App, Chart, Duration, Size } from 'cdk8s';
import { QemuPool } from 'virtual-exporters/cdk8s';
import type { Benchmark } from './support/benchmark';
import type { BenchResult } from './support/results';
import { median } from './support/stats';

const POOLS = 200;
const NAMESPACE = 'lab';

/** Pool `i`: a small variety of sizes, boards and drivers, as a lab's pool list would have. */
export function buildPools(chart: Chart, pools = POOLS): void {
  for (let i = 0; i < pools; i++) {
    const arm = i % 3 === 0;
    new QemuPool(chart, `Pool${i}`, {
      metadata: { name: `pool-${i}` },
      arch: arm ? 'aarch64' : 'x86_64',
      machineType: arm ? 'virt' : 'q35',
      cpu: 2 + (i % 3),
      memory: Size.gibibytes(2 + (i % 4)),
      storage: Size.gibibytes(20),
      labels: { board: `board-${i % 17}`, pool: `pool-${i}`, virtual: 'true' },
      drivers: [
        { type: 'jumpstarter_driver_qemu.driver.Qemu' },
        { type: 'jumpstarter_driver_network.driver.TcpNetwork', config: { port: 22 } },
        { type: 'jumpstarter_driver_serial.driver.QemuSerial' },
      ],
      minReplicas: i % 2,
      maxReplicas: 10 + (i % 5),
      minAvailableReplicas: 1 + (i % 3),
      scaleDownCooldown: Duration.minutes(5 + (i % 10)),
    });
  }
}

/** One synthesis through the constructs; returns its wall time and the objects it produced. */
export function synthConstructs(pools = POOLS): {
  ms: number;
  objects: Record<string, unknown>[];
  yaml: string;
} {
  const started = performance.now();
  const app = new App();
  const chart = new Chart(app, 'Pools', { namespace: NAMESPACE });
  buildPools(chart, pools);
  const yaml = app.synthYaml();
  const ms = performance.now() - started;
  return { ms, objects: chart.toJson() as Record<string, unknown>[], yaml };
}

/** One synthesis of the same objects as raw ApiObjects. */
export function synthRaw(objects: readonly Record<string, unknown>[]): { ms: number; yaml: string } {
  const started = performance.now();
  const app = new App();
  const chart = new Chart(app, 'Pools', { namespace: NAMESPACE });
  objects.forEach((object, index) => {
    const { apiVersion, kind, metadata, ...rest } = object as {
      apiVersion: string;
      kind: string;
      metadata: Record<string, unknown>;
    };
    new ApiObject(chart, `Object${index}`, { apiVersion, kind, metadata, ...rest });
  });
  const yaml = app.synthYaml();
  return { ms: performance.now() - started, yaml };
}

const round = (x: number) => Math.round(x * 100) / 100;

export const p5: Benchmark = {
  id: 'p5',
  name: 'p5-synth',
  title: 'synth: 200 pools through our constructs vs the same objects as raw ApiObjects',
  async run(context): Promise<BenchResult> {
    const rounds = context.settings.quick ? 7 : 31;
    const constructs: number[] = [];
    const raw: number[] = [];
    let objects: Record<string, unknown>[] = synthConstructs().objects;
    let same = true;
    for (let round = 0; round <= rounds; round++) {
      // Alternate which side goes first, so neither always pays the other's garbage collection.
      let built: ReturnType<typeof synthConstructs>;
      let plain: ReturnType<typeof synthRaw>;
      if (round % 2 === 0) {
        built = synthConstructs();
        plain = synthRaw(objects);
      } else {
        plain = synthRaw(objects);
        built = synthConstructs();
      }
      objects = built.objects;
      same &&= built.yaml === plain.yaml;
      if (round === 0) continue; // warm-up: module loading and JIT
      constructs.push(built.ms);
      raw.push(plain.ms);
    }
    if (!same) throw new Error('the raw ApiObjects did not synthesize to the same YAML as the constructs');
    const constructsMs = median(constructs);
    const rawMs = median(raw);
    context.log(`p5: constructs ${constructsMs.toFixed(1)} ms, raw ${rawMs.toFixed(1)} ms per synthesis`);
    return {
      name: 'p5-synth',
      title: this.title,
      figures: [
        {
          label: 'constructs / raw ApiObjects',
          value: round(constructsMs / rawMs),
          unit: 'x',
          target: { op: '<=', value: 1.5 },
        },
        { label: 'constructs: one synthesis', value: round(constructsMs), unit: 'ms' },
        { label: 'raw ApiObjects: one synthesis', value: round(rawMs), unit: 'ms' },
      ],
      details: {
        pools: POOLS,
        objects: objects.length,
        rounds,
        fastestRatio: round(Math.min(...constructs) / Math.min(...raw)),
        constructsMs: constructs.map(round),
        rawMs: raw.map(round),
        sameYaml: same,
      },
    };
  },
};
