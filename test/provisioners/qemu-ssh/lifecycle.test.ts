import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { JsonObject } from '../../../lib/api';
import {
  HOST_ANNOTATION,
  QemuSshLifecycle,
  fingerprint,
  remoteLayout,
  type LifecycleInstance,
  type LifecycleNotice,
  type Placement,
} from '../../../lib/provisioners';
import { describeWithSshd, makeKeyPair, SshdLab } from '../../support/sshd-host';
import { exporter } from '../fixtures';
import { sshClass, sshInstance } from './fixtures';

describeWithSshd('qemu-ssh lifecycle', () => {
  let lab: SshdLab;
  let h0: SshdLab['hosts'][number];
  let h1: SshdLab['hosts'][number];

  beforeAll(async () => {
    lab = await SshdLab.start(2);
    [h0, h1] = lab.hosts as [typeof h0, typeof h1];
  });
  afterAll(async () => {
    await lab?.close();
  });

  /** h0 has one slot, h1 two. */
  const parameters = (extra: JsonObject = {}): JsonObject => ({
    ssh: { user: h0.user },
    hosts: [
      { name: h0.name, port: h0.port, slots: 1 },
      { name: h1.name, port: h1.port, slots: 2 },
    ],
    runtime: { kvm: true },
    ...extra,
  });

  function lifecycle(notices: LifecycleNotice[] = []): QemuSshLifecycle {
    return new QemuSshLifecycle({
      hostRoot: (host) => lab.host(host.name).root,
      onNotice: (n) => notices.push(n),
      connectTimeoutMs: 5000,
    });
  }

  function instance(name: string, options: { namespace?: string; params?: JsonObject; key?: string } = {}) {
    const params = options.params ?? parameters();
    const base = exporter();
    return {
      ...sshInstance({
        virtualTargetClass: sshClass(params),
        parameters: params,
        exporter: { ...base, metadata: { ...base.metadata, name, namespace: options.namespace ?? 'lab' } },
      }),
      credentials: { 'ssh-privatekey': options.key ?? lab.clientKey.privateKey },
    } satisfies LifecycleInstance;
  }

  const filesOf = (namespace: string, name: string) => {
    const l = remoteLayout(namespace, name);
    return [l.exporterUnitPath, l.runtimeUnitPath, l.volumeUnitPath, l.configPath].sort();
  };
  const service = (name: string, unit: 'runtime' | 'exporter') => `jumpstarter.lab.${name}-${unit}.service`;

  it('realises across two hosts respecting slots, spread and by name, reporting first-use host keys', async () => {
    const notices: LifecycleNotice[] = [];
    const lc = lifecycle(notices);
    const placements: Placement[] = [];
    for (const name of ['pool-0', 'pool-1', 'pool-2']) {
      placements.push(await lc.realise(instance(name), [...placements]));
    }
    expect(placements.map((p) => p[HOST_ANNOTATION])).toEqual([h0.name, h1.name, h1.name]);
    await expect(lc.realise(instance('pool-3'), placements)).rejects.toThrow(
      `cannot place instance lab/pool-3: every host is full (${h0.name} 1/1, ${h1.name} 2/2)`,
    );
    expect(h0.files()).toEqual(filesOf('lab', 'pool-0'));
    expect(h1.files()).toEqual([...filesOf('lab', 'pool-1'), ...filesOf('lab', 'pool-2')].sort());
    expect(h0.calls()).toEqual([
      'systemctl daemon-reload',
      `systemctl start ${service('pool-0', 'runtime')} ${service('pool-0', 'exporter')}`,
    ]);
    expect(notices.map((n) => n.reason)).toEqual(['HostKeyTrustedOnFirstUse', 'HostKeyTrustedOnFirstUse']);
    // Both hosts' keys, each with its fingerprint and the known_hosts line that pins it.
    for (const host of [h0, h1]) {
      const notice = notices.find((n) =>
        n.message.includes(`[${host.name}]:${host.port} on first use: SHA256:`),
      );
      expect(notice?.message).toContain(`pin it by adding "${host.knownHostsLine()}" to knownHosts`);
    }

    // Idempotent: a realise whose placement was never recorded finds its files and stays there.
    h0.clearCalls();
    expect(await lc.realise(instance('pool-0'), placements.slice(1))).toEqual({ [HOST_ANNOTATION]: h0.name });
    expect(h1.files()).not.toEqual(expect.arrayContaining(filesOf('lab', 'pool-0')));
    expect(h0.files()).toEqual(filesOf('lab', 'pool-0'));

    for (const [i, name] of ['pool-0', 'pool-1', 'pool-2'].entries()) {
      await lc.teardown(instance(name), placements[i]!);
    }
  });

  it('observes running, exited (the exporter ended) and failed units, and absent ones', async () => {
    const lc = lifecycle();
    const placement = await lc.realise(instance('obs-0'), []);
    expect(await lc.observe(instance('obs-0'), placement)).toEqual({ state: 'running' });

    const host = lab.host(placement[HOST_ANNOTATION]!);
    host.markExited(service('obs-0', 'exporter'), 0);
    expect(await lc.observe(instance('obs-0'), placement)).toEqual({
      state: 'exited',
      reason: 'UnitExited',
      message: `${service('obs-0', 'exporter')} exited with code 0`,
    });
    host.markExited(service('obs-0', 'runtime'), 137);
    expect(await lc.observe(instance('obs-0'), placement)).toEqual({
      state: 'failed',
      reason: 'UnitFailed',
      message: `${service('obs-0', 'runtime')} failed (exit-code, exit code 137)`,
    });
    expect(await lc.observe(instance('never'), placement)).toEqual({ state: 'absent' });
    await lc.teardown(instance('obs-0'), placement);
    expect(await lc.observe(instance('obs-0'), placement)).toEqual({ state: 'absent' });
  });

  it('tears down everything it wrote (stop, disable, files, daemon-reload, volume), idempotently', async () => {
    const lc = lifecycle();
    const placement = await lc.realise(instance('td-0'), []);
    const host = lab.host(placement[HOST_ANNOTATION]!);
    const base = remoteLayout('lab', 'td-0').base;
    expect(host.volumes()).toContain(base);
    host.clearCalls();
    await lc.teardown(instance('td-0'), placement);
    expect(host.files()).toEqual([]);
    expect(host.volumes()).not.toContain(base);
    const units = `${service('td-0', 'exporter')} ${service('td-0', 'runtime')}`;
    expect(host.calls()).toEqual([
      `systemctl stop ${units}`,
      `systemctl disable ${units}`,
      'systemctl daemon-reload',
      `podman volume exists ${base}`,
      `podman volume rm --force ${base}`,
    ]);
    // Again: nothing there is success.
    await lc.teardown(instance('td-0'), placement);
    await lc.teardown(instance('td-0'), {});
  });

  it('lists leftovers of the namespace asked for only, and removes one with no placement wherever it is', async () => {
    const lc = lifecycle();
    const a = await lc.realise(instance('left-0'), []);
    const b = await lc.realise(instance('left-0', { namespace: 'other' }), [a]);
    expect(a[HOST_ANNOTATION]).not.toBe(b[HOST_ANNOTATION]);
    const creds = { 'ssh-privatekey': lab.clientKey.privateKey };
    expect(await lc.realisedNames(parameters(), creds, 'lab')).toEqual(['left-0']);
    expect(await lc.realisedNames(parameters(), creds, 'other')).toEqual(['left-0']);
    await lc.teardown(instance('left-0'), {});
    expect(await lc.realisedNames(parameters(), creds, 'lab')).toEqual([]);
    // The other namespace's instance of the same name is untouched.
    expect(lab.host(b[HOST_ANNOTATION]!).files()).toEqual(filesOf('other', 'left-0'));
    await lc.teardown(instance('left-0', { namespace: 'other' }), b);
    expect(h0.files()).toEqual([]);
    expect(h1.files()).toEqual([]);
  });

  it('reports a host that is down as unknown naming it, and places new instances on another host', async () => {
    const lc = lifecycle();
    const on0 = await lc.realise(instance('down-0'), []);
    expect(on0[HOST_ANNOTATION]).toBe(h0.name);
    await h0.stop();
    try {
      const observed = await lc.observe(instance('down-0'), on0);
      expect(observed.state).toBe('unknown');
      expect(observed.reason).toBe('HostUnreachable');
      expect(observed.message).toMatch(new RegExp(`^SSH to ${h0.name}:${h0.port} failed: .*ECONNREFUSED`));
      // h0 has room again in this test's eyes (no placements), but is backed off: h1 takes it.
      const next = await lc.realise(instance('down-1'), []);
      expect(next[HOST_ANNOTATION]).toBe(h1.name);
      // The observe of the backed-off host answers at once, with the last error.
      expect((await lc.observe(instance('down-0'), on0)).message).toMatch(
        `host ${h0.name}: connect ECONNREFUSED`,
      );
      // A fresh lifecycle tries h0 first, fails over to h1.
      const fresh = lifecycle();
      expect((await fresh.realise(instance('down-2'), [next]))[HOST_ANNOTATION]).toBe(h1.name);
      await lc.teardown(instance('down-1'), next);
      await lc.teardown(instance('down-2'), next);
    } finally {
      await h0.resume();
    }
    await lifecycle().teardown(instance('down-0'), on0);
    expect(h0.files()).toEqual([]);
  });

  it('refuses a wrong key with a clear error that never shows the key', async () => {
    const wrong = makeKeyPair(lab.dir, 'wrong');
    const lc = lifecycle();
    const params = parameters({ hosts: [{ name: h0.name, port: h0.port }] });
    const error = await lc.realise(instance('key-0', { params, key: wrong.privateKey }), []).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe(
      `cannot place instance lab/key-0: no host with a free slot can be reached: ${h0.name}: the host refused the key in the class's credentials (ssh-privatekey) for user ${h0.user}: All configured authentication methods failed (retried in 5 s)`,
    );
    const body = wrong.privateKey.split('\n').slice(1, -2).join('');
    expect(error.message).not.toContain('PRIVATE KEY');
    for (let i = 0; i + 16 <= body.length; i += 16)
      expect(error.message).not.toContain(body.slice(i, i + 16));
    const missing = await lc
      .realise({ ...instance('key-1', { params }), credentials: {} }, [])
      .catch((e: Error) => e.message);
    expect(missing).toContain('ssh-privatekey: is required');
  });

  it('refuses a changed host key, naming the host and both fingerprints; honours pinned knownHosts', async () => {
    const params = parameters({ hosts: [{ name: h1.name, port: h1.port }] });
    const lc = lifecycle();
    const placement = await lc.realise(instance('hk-0', { params }), []);
    const before = h1.knownHostsLine();
    await h1.stop();
    h1.newHostKey();
    await h1.resume();
    const observed = await lc.observe(instance('hk-0', { params }), placement);
    expect(observed.state).toBe('unknown');
    expect(observed.message).toMatch(
      new RegExp(
        `host key of \\[${h1.name.replace(/\./g, '\\.')}\\]:${h1.port} changed since it was trusted on first use: the host presents SHA256:\\S+, SHA256:\\S+ was recorded`,
      ),
    );
    // Pinned to the old key: refused too; pinned to the new one: accepted with no notice.
    const notices: LifecycleNotice[] = [];
    const pinnedOld = parameters({ hosts: [{ name: h1.name, port: h1.port }], knownHosts: `${before}\n` });
    const refused = await lifecycle(notices)
      .observe(instance('hk-0', { params: pinnedOld }), placement)
      .catch((e) => e);
    expect(refused.message).toMatch(
      /does not match knownHosts: the host presents SHA256:\S+, knownHosts pins SHA256:/,
    );
    const pinnedNew = parameters({
      hosts: [{ name: h1.name, port: h1.port }],
      knownHosts: h1.knownHostsLine(),
    });
    const ok = lifecycle(notices);
    expect(await ok.observe(instance('hk-0', { params: pinnedNew }), placement)).toEqual({
      state: 'running',
    });
    expect(notices).toEqual([]);
    await ok.teardown(instance('hk-0', { params: pinnedNew }), placement);
  });

  it('keeps first-use trust in the instance trust store: a restarted lifecycle refuses a changed key', async () => {
    // The store as the controller keeps one beside the class's credentials (a document replaced whole).
    let document: string | undefined;
    const trust = {
      location: 'Secret lab/lab-ssh-known-hosts (key known_hosts)',
      read: async () => document,
      replace: async (expected: string | undefined, next: string) => {
        if (document !== expected) return false;
        document = next;
        return true;
      },
    };
    const params = parameters({ hosts: [{ name: h0.name, port: h0.port }] });
    const trusting = (name: string): LifecycleInstance => ({ ...instance(name, { params }), trust });
    const notices: LifecycleNotice[] = [];
    const placement = await lifecycle(notices).realise(trusting('tr-0'), []);
    // Written on first use, before the connection was used.
    const before = h0.knownHostsLine();
    expect(document?.split('\n')).toContain(before);
    expect(notices.map((n) => n.message)).toEqual([expect.stringContaining(`on first use: SHA256:`)]);
    expect(notices[0]!.message).toContain('recorded in Secret lab/lab-ssh-known-hosts (key known_hosts)');

    // A restarted controller: nothing in memory, the same store; the host now offers another key.
    await h0.stop();
    h0.newHostKey();
    await h0.resume();
    const print = (line: string) => fingerprint(Buffer.from(line.split(' ')[2]!, 'base64'));
    const observed = await lifecycle().observe(trusting('tr-0'), placement);
    expect(observed.state).toBe('unknown');
    expect(observed.message).toContain(
      `host key of [${h0.name}]:${h0.port} changed since it was trusted on first use: the host presents ` +
        `${print(h0.knownHostsLine())}, ${print(before)} was recorded in Secret lab/lab-ssh-known-hosts (key known_hosts); ` +
        `if the change is expected, remove the line of [${h0.name}]:${h0.port} there`,
    );
    expect(document?.split('\n')).toContain(before);

    // The admin removes the line: the next connection trusts the new key on first use and records it.
    document = document!.replace(`${before}\n`, '');
    const accepted = lifecycle();
    expect(await accepted.observe(trusting('tr-0'), placement)).toEqual({ state: 'running' });
    expect(document.split('\n')).toContain(h0.knownHostsLine());
    await accepted.teardown(trusting('tr-0'), placement);
  });
});
