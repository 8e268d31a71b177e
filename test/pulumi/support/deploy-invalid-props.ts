/**
 * A Pulumi program, run in its own Node process under mocks, that deploys every case of the shared
 * invalid-props table with each arg an Output, and prints as JSON the failure messages it gets per case.
 *
 * A separate process because this is how an invalid Output fails a deployment: the component throws
 * inside `apply`, the resource's registration rejects, and the Pulumi SDK re-raises the rejection as an
 * unhandled one on purpose, which the language host reports as the deployment's error. Jest fails any
 * test during which a rejection goes unhandled, so the program cannot run inside a test; here the
 * `unhandledRejection` handler plays the language host.
 */
import * as pulumi from '@pulumi/pulumi';
import * as fs from 'node:fs';
import { INVALID_PROPS } from '../../support/invalid-props';
import { buildCase, RESULT_MARKER } from './build-case';

async function main(): Promise<void> {
  // Every Output derived from a failed one fails with the same error: keep each message once.
  const failures: Record<string, Set<string>> = {};
  const note = (error: unknown): void => {
    const message = error instanceof Error ? error.message : String(error);
    const at = /\[virtual-exporters:index:\w+::(case-\d+)\]/.exec(message);
    const key = at ? at[1] : 'unattributed';
    (failures[key] ??= new Set()).add(at ? message.slice(at.index) : message);
    // As the language host does: the error is the deployment's, so the SDK does not also report the
    // registrations that wait on the failed resource as leaked promises.
    pulumi.log.error(message);
  };
  process.on('unhandledRejection', note);

  await pulumi.runtime.setMocks(
    { newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs },
    'project',
    'stack',
    false,
  );
  const api = await import('../../../lib/pulumi');
  INVALID_PROPS.forEach((c, i) => {
    try {
      buildCase(api, c, `case-${i}`, (value) => pulumi.output(value));
    } catch (error) {
      note(error); // args that decide the resources are checked at once, even among Outputs
    }
  });
  // Resources waiting on a failed one never register (the language host would have stopped at the
  // first error), so the program ends when nothing is left to run, not when every RPC is done.
  process.once('beforeExit', () => {
    const result = Object.fromEntries(Object.entries(failures).map(([k, v]) => [k, [...v]]));
    fs.writeSync(1, `${RESULT_MARKER}${JSON.stringify(result)}\n`); // synchronously: the SDK ends the process next
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
