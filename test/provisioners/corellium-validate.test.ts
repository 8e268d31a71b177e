import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { RuleMessages } from '../../lib/api';
import { describeValue, formatIssue } from '../../lib/core/issue';
import { CorelliumRuleMessages, validateCorelliumParameters } from '../../lib/provisioners';
import { PROJECT_ID } from './corellium-fixtures';

const valid = {
  api: { host: 'app.corellium.com', projectId: PROJECT_ID },
  device: { flavor: 'kronos', os: '1.1.1', build: 'Critical Application Monitor (Baremetal)' },
};

const lines = (parameters: unknown) => validateCorelliumParameters(parameters).map(formatIssue);

describe('corellium parameters › valid', () => {
  it('accepts the JEP example', () => {
    expect(validateCorelliumParameters(valid)).toEqual([]);
  });

  it('accepts a host with a port, and no os or build', () => {
    expect(
      validateCorelliumParameters({
        api: { host: 'corellium.lab.example:8443', projectId: PROJECT_ID.toUpperCase() },
        device: { flavor: 'ranchu' },
      }),
    ).toEqual([]);
  });

  it('keeps unknown keys without reporting them, at the top and inside api and device', () => {
    expect(
      validateCorelliumParameters({
        ...valid,
        bootTimeout: 120,
        api: { ...valid.api, region: 'eu' },
        device: { ...valid.device, patches: 'jailbroken' },
      }),
    ).toEqual([]);
  });

  it('lets null stand for an absent optional field', () => {
    expect(
      validateCorelliumParameters({ ...valid, device: { flavor: 'kronos', os: null, build: null } }),
    ).toEqual([]);
  });
});

describe('corellium parameters › messages name the path, the value, the rule and the fix', () => {
  it('reports every required field when nothing is given', () => {
    expect(lines({})).toEqual([
      `api: ${CorelliumRuleMessages.apiRequired}`,
      `device: ${CorelliumRuleMessages.deviceRequired}`,
    ]);
    expect(lines(undefined)).toEqual(lines({}));
  });

  it('reports the required fields missing inside api and device', () => {
    expect(lines({ api: {}, device: { os: '1.1.1' } })).toEqual([
      'api.host: is required: the Corellium API host, such as "app.corellium.com"',
      'api.projectId: is required: the UUID of the Corellium project the devices are created in, such as "778f00af-5e9b-40e6-8e7f-c4f14b632e9c"',
      'device.flavor: is required: the Corellium device flavor to create, such as "kronos"',
    ]);
  });

  it.each([
    [{ ...valid, api: 'app.corellium.com' }, `api: ${CorelliumRuleMessages.api} (got "app.corellium.com")`],
    [
      { ...valid, api: { ...valid.api, host: 'https://app.corellium.com/' } },
      'api.host: must be a host name, optionally with a port, of at most 253 characters and without scheme or path, such as "app.corellium.com" (write "https://app.corellium.com/" as "app.corellium.com") (got "https://app.corellium.com/")',
    ],
    [
      { ...valid, api: { ...valid.api, host: 'app.corellium.com:0' } },
      `api.host: ${CorelliumRuleMessages.host} (got "app.corellium.com:0")`,
    ],
    [
      { ...valid, api: { ...valid.api, host: 'a'.repeat(254) } },
      `api.host: ${CorelliumRuleMessages.host} (got ${describeValue('a'.repeat(254))})`,
    ],
    [
      { ...valid, api: { ...valid.api, projectId: 'my-project' } },
      'api.projectId: must be the UUID of a Corellium project, as a string, such as "778f00af-5e9b-40e6-8e7f-c4f14b632e9c" (the id is shown in the project settings of the Corellium web UI) (got "my-project")',
    ],
    [
      { ...valid, api: { ...valid.api, projectId: 42 } },
      `api.projectId: ${CorelliumRuleMessages.projectId} (got 42)`,
    ],
    [{ ...valid, device: ['kronos'] }, `device: ${CorelliumRuleMessages.device} (got ["kronos"])`],
    [
      { ...valid, device: { flavor: 'kronos v2' } },
      'device.flavor: must be a Corellium device flavor: letters, digits, ".", "_" or "-", at most 256 characters, such as "kronos" (got "kronos v2")',
    ],
    [
      { ...valid, device: { flavor: 'kronos', os: 1.1 } },
      'device.os: must be a non-empty string of at most 256 characters naming the OS version, such as "1.1.1" (quote it in YAML: 1.1 unquoted is a number) (got 1.1)',
    ],
    [
      { ...valid, device: { flavor: 'kronos', build: '  ' } },
      `device.build: ${CorelliumRuleMessages.build} (got "  ")`,
    ],
    [[valid], `${RuleMessages.parametersObject} (got ${describeValue([valid])})`],
  ])('%j', (parameters, line) => {
    const found = lines(parameters);
    expect(found).toHaveLength(1);
    expect(found[0].replace(/^: /, '')).toBe(line);
  });

  it('reports a user driver named corellium only when the template has no Corellium driver', () => {
    const clash = [{ name: 'corellium', type: 'jumpstarter_driver_power.driver.MockPower' }];
    expect(validateCorelliumParameters(valid, { drivers: clash }).map((i) => i.path)).toEqual([
      'spec.template.spec.drivers[0].name',
    ]);
    expect(
      validateCorelliumParameters(valid, {
        drivers: [...clash, { type: 'jumpstarter_driver_corellium.driver.Corellium' }],
      }),
    ).toEqual([]);
  });

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (api, device) => {
        expect(() => validateCorelliumParameters({ api, device })).not.toThrow();
        expect(() => validateCorelliumParameters(api)).not.toThrow();
      }),
    );
  });
});
