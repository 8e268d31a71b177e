import { beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { INVALID_PROPS, linesAfterHead } from '../support/invalid-props';
import { buildCase, RESULT_MARKER } from './support/build-case';
import { MockStack } from './support/mock-stack';

await MockStack.start();
const api = await import('../../lib/pulumi');

const cases = INVALID_PROPS.map((c, i) => [`${c.construct}: ${c.title}`, c, i] as const);

function head(construct: string, name: string): string {
  return `[virtual-exporters:index:${construct}::${name}] invalid ${construct}`;
}

describe('invalid props (the table shared with the cdk8s constructs)', () => {
  describe('plain args: the constructor throws', () => {
    it.each(cases)('rejects %s', (_title, c, i) => {
      const name = `plain-${i}`;
      let message = '';
      try {
        buildCase(api, c, name, (value) => value);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(linesAfterHead(message, head(c.construct, name))).toEqual(c.lines);
    });
  });

  describe('args as Outputs: the deployment fails with the same message', () => {
    // Runs the table as a Pulumi program in its own process (see deploy-invalid-props.ts for why).
    let failures: Record<string, string[]> = {};
    beforeAll(async () => {
      const program = path.resolve(process.cwd(), 'test/pulumi/support/deploy-invalid-props.ts');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['-r', 'ts-node/register/transpile-only', program],
        { cwd: process.cwd(), env: { ...process.env, NODE_OPTIONS: '' }, maxBuffer: 16 * 1024 * 1024 },
      );
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
      if (!line) throw new Error(`the program printed no result:\n${stdout}`);
      failures = JSON.parse(line.slice(RESULT_MARKER.length));
    });

    it.each(cases)('rejects %s', (_title, c, i) => {
      const name = `case-${i}`;
      expect(failures[name]).toHaveLength(1); // every failing Output reports the same error
      expect(linesAfterHead(failures[name][0], head(c.construct, name))).toEqual(c.lines);
    });

    it('fails for no other reason', () => {
      const expected = INVALID_PROPS.map((_c, i) => `case-${i}`);
      expect(Object.keys(failures).sort()).toEqual(expected.sort());
    });
  });
});
