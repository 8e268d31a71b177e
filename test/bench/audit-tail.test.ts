/**
 * The real server's audit log read as it grows (`--backend kube`): only new lines each time, a line
 * being written waits for its end, microsecond times, and a rotated file is finished before the new one.
 */
import { describe, expect, it } from '@jest/globals';
import { appendFileSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AuditTail, measureClockDrift, parseMicroTime } from '../../bench/support/audit-tail';

const line = (name: string, verb = 'create', code = 201) =>
  `${JSON.stringify({
    user: { username: 'controller' },
    verb,
    objectRef: { apiGroup: 'jumpstarter.dev', resource: 'exporters', namespace: 'ns', name },
    responseStatus: { code },
    requestReceivedTimestamp: '2026-11-27T21:28:00.123456Z',
    stageTimestamp: '2026-11-27T21:28:00.125000Z',
  })}\n`;

describe('audit log tail', () => {
  it('parses RFC 3339 times to the microsecond', () => {
    expect(parseMicroTime('2026-11-27T21:28:00.123456Z')).toBeCloseTo(
      Date.parse('2026-11-27T21:28:00Z') + 123.456,
      3,
    );
    expect(parseMicroTime('2026-11-27T21:28:00Z')).toBe(Date.parse('2026-11-27T21:28:00Z'));
    expect(parseMicroTime('yesterday')).toBeNaN();
  });

  it('reads what was written since the last call, a half-written line once it is whole', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'audit-tail-')), 'audit.log');
    const tail = new AuditTail(file);
    expect(tail.read()).toEqual([]); // nothing written yet
    writeFileSync(file, line('a'));
    const [first] = tail.read();
    expect(first).toMatchObject({
      user: 'controller',
      verb: 'create',
      group: 'jumpstarter.dev',
      resource: 'exporters',
      subresource: '',
      namespace: 'ns',
      name: 'a',
      code: 201,
    });
    expect(first.answeredAt - first.receivedAt).toBeCloseTo(1.544, 3);
    expect(first.receivedAt).toBeCloseTo(
      tail.wallToTimeline(parseMicroTime('2026-11-27T21:28:00.123456Z')),
      3,
    );
    const b = line('b');
    appendFileSync(file, b.slice(0, 40));
    expect(tail.read()).toEqual([]);
    appendFileSync(file, b.slice(40) + line('c', 'get', 200));
    expect(tail.read().map((r) => [r.name, r.verb])).toEqual([
      ['b', 'create'],
      ['c', 'get'],
    ]);
  });

  it('finishes a rotated file before it reads the new one', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'audit-tail-'));
    const file = path.join(dir, 'audit.log');
    const tail = new AuditTail(file);
    writeFileSync(file, line('a'));
    expect(tail.read().map((r) => r.name)).toEqual(['a']);
    appendFileSync(file, line('b'));
    renameSync(file, path.join(dir, 'audit-2026-11-27T21-28-00.000.log'));
    writeFileSync(file, line('c'));
    expect(tail.read().map((r) => r.name)).toEqual(['b', 'c']);
    expect(tail.rotations).toBe(1);
    appendFileSync(file, line('d'));
    expect(tail.read().map((r) => r.name)).toEqual(['d']);
  });

  it('measures this process’s timeline against the system clock to under a millisecond', () => {
    const drift = measureClockDrift();
    // Within a millisecond of what undisturbed samples say (one the scheduler interrupted reads across
    // a tick and says nothing; on a loaded machine many are).
    let agreeing = 0;
    for (let i = 0; i < 10_000 && agreeing < 100; i++) {
      const before = Date.now();
      const offset = performance.timeOrigin + performance.now() - before;
      if (Date.now() !== before) continue;
      expect(offset - drift).toBeGreaterThanOrEqual(-0.01);
      expect(offset - drift).toBeLessThan(1.01);
      agreeing++;
    }
    expect(agreeing).toBe(100);
  });
});
