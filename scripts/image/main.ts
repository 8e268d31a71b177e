/**
 * `npm run image`: builds the controller image from controller/Dockerfile without a daemon and
 * smoke-tests it against the test cluster. Phases, each timed:
 *
 * 1. tools   — buildah and mmdebstrap, installed with apt-get when missing;
 * 2. node    — the pinned Node binary and npm from the npm registry, integrity checked;
 * 3. base    — the local Node base image (Debian's packages + that Node), unless the storage has it;
 * 4. image   — `buildah bud` of controller/Dockerfile on that base;
 * 5. compile — `npm run build` when the host's build is stale (the test cluster runs from it);
 * 6. smoke   — the image's entrypoint, run with the installer's arguments, serves a pool.
 *
 * `IMAGE_NODE_BASE=<reference>` builds on that base instead (skipping 2 and 3); `IMAGE_WORK_DIR` moves
 * the downloads and buildah's storage (default `<tmp>/virtual-exporters-image`).
 */
import { ensureBuilt } from '../../tools/src/lab/build';
import { buildLocalBase, fetchNode } from './base';
import { buildControllerImage } from './build';
import { ensureHostTools } from './tools';
import { LOCAL_BASE_IMAGE, NODE_BASE_OVERRIDE, REPO_ROOT, WORK_DIR, controllerImage } from './settings';

const log = (line: string) => process.stderr.write(`image: ${line}\n`);

interface Timing {
  readonly phase: string;
  readonly seconds: number;
  readonly note: string;
}

async function main(): Promise<void> {
  const timings: Timing[] = [];
  const phase = async (name: string, work: () => string | Promise<string>) => {
    const start = process.hrtime.bigint();
    log(`— ${name}`);
    const note = await work();
    timings.push({ phase: name, seconds: Number(process.hrtime.bigint() - start) / 1e9, note });
  };
  const reference = controllerImage();
  log(`work directory ${WORK_DIR}`);

  await phase('tools', () => {
    const installed = ensureHostTools(log);
    return installed.length > 0 ? `installed ${installed.join(', ')}` : 'present';
  });
  let nodeBase = NODE_BASE_OVERRIDE ?? LOCAL_BASE_IMAGE;
  if (NODE_BASE_OVERRIDE === undefined) {
    let tarballs = { node: '', npm: '' };
    await phase('node', () => {
      tarballs = fetchNode(log);
      return 'verified';
    });
    await phase('base', () => (buildLocalBase(tarballs, log) ? `built ${nodeBase}` : 'reused'));
  } else {
    nodeBase = NODE_BASE_OVERRIDE;
  }
  await phase('image', () => {
    buildControllerImage(reference, nodeBase, NODE_BASE_OVERRIDE !== undefined);
    return `${reference} on ${nodeBase}`;
  });
  await phase('compile', () => {
    ensureBuilt(REPO_ROOT, log);
    return 'host build up to date';
  });
  await phase('smoke', async () => {
    // Loaded only now: the test cluster and the installer come from the build just checked.
    const { smokeTest } = await import('./smoke');
    return smokeTest(reference, log);
  });

  const total = timings.reduce((sum, t) => sum + t.seconds, 0);
  log('phase     seconds  result');
  for (const t of timings) log(`${t.phase.padEnd(9)} ${t.seconds.toFixed(1).padStart(7)}  ${t.note}`);
  log(`${'total'.padEnd(9)} ${total.toFixed(1).padStart(7)}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`image: FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
