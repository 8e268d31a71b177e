/**
 * The sshd test hosts (virtual-exporters-test-cluster, ssh-hosts/) for jest: tests skip (describe.skip,
 * named after the reason) when sshd cannot run here, unless VIRTUAL_EXPORTERS_REQUIRE_SSHD=1, when they
 * fail instead (CI installs openssh-server and sets it).
 */
import { describe, it } from '@jest/globals';
import { sshdUnavailable } from 'virtual-exporters-test-cluster';

export { makeKeyPair, SSHD, SshdHost, SshdLab } from 'virtual-exporters-test-cluster';

export const REQUIRE_SSHD_ENV = 'VIRTUAL_EXPORTERS_REQUIRE_SSHD';

/** What a run does with the sshd tests: run them, skip them, or fail for want of sshd. */
export function sshdMode(available: boolean, env: NodeJS.ProcessEnv = process.env): 'run' | 'skip' | 'fail' {
  if (available) return 'run';
  return env[REQUIRE_SSHD_ENV] === '1' ? 'fail' : 'skip';
}

/** `describe` when sshd can run here; a named skip without it; a failing test when it is required. */
export function describeWithSshd(name: string, fn: () => void): void {
  const missing = sshdUnavailable();
  const mode = sshdMode(missing === undefined);
  if (mode === 'run') describe(`${name} (real sshd on loopback)`, fn);
  else if (mode === 'fail') {
    describe(name, () => {
      it(`needs sshd (${REQUIRE_SSHD_ENV}=1)`, () => {
        throw new Error(`${missing} and ${REQUIRE_SSHD_ENV}=1`);
      });
    });
  } else describe.skip(`${name} — skipped: ${missing}`, fn);
}
