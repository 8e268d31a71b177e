// Preloaded (`--require`) into the controller process under benchmark, which is the real
// `exporter-set-controller` CLI: answers the benchmark's IPC question "how much CPU and memory have
// you used?" with process.cpuUsage() and process.memoryUsage(), after a full garbage collection when
// asked (needs --expose-gc), and shuts the controller down gracefully if the benchmark goes away.
'use strict';

const fs = require('node:fs');
const v8 = require('node:v8');

/** Resident kB by kind from /proc/self/smaps_rollup (Linux): anonymous memory vs mapped files. */
function residentKb() {
  try {
    const text = fs.readFileSync('/proc/self/smaps_rollup', 'utf8');
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
    return { rss: field('Rss'), anonymous: field('Anonymous') };
  } catch {
    return undefined;
  }
}

process.on('message', (message) => {
  if (!message || message.type !== 'bench:usage') return;
  if (message.gc && typeof global.gc === 'function') {
    global.gc();
    global.gc();
  }
  process.send({
    type: 'bench:usage',
    id: message.id,
    at: performance.timeOrigin + performance.now(),
    cpu: process.cpuUsage(),
    memory: process.memoryUsage(),
    heap: v8.getHeapStatistics(),
    resident: residentKb(),
    gc: Boolean(message.gc && typeof global.gc === 'function'),
  });
});

process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
