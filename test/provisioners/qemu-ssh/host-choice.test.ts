import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { HOST_ANNOTATION, HostBackoff, chooseHosts, type ResolvedHost } from '../../../lib/provisioners';

const host = (name: string, slots = 2): ResolvedHost => ({ name, slots, user: 'root', port: 22 });
const on = (name: string) => ({ [HOST_ANNOTATION]: name });
const names = (choice: ReturnType<typeof chooseHosts>) =>
  choice.ok ? choice.candidates.map((c) => c.host.name) : choice.message;

describe('qemu-ssh host choice', () => {
  it('spreads: fewest used first, ties by host name', () => {
    const hosts = [host('b'), host('a'), host('c')];
    expect(names(chooseHosts(hosts, [], new HostBackoff(), 0))).toEqual(['a', 'b', 'c']);
    expect(names(chooseHosts(hosts, [on('a')], new HostBackoff(), 0))).toEqual(['b', 'c', 'a']);
    expect(names(chooseHosts(hosts, [on('a'), on('b'), on('a')], new HostBackoff(), 0))).toEqual(['c', 'b']);
  });

  it('counts placements of the same pass and respects slots', () => {
    const hosts = [host('a', 1), host('b', 2)];
    expect(names(chooseHosts(hosts, [on('a'), on('b')], new HostBackoff(), 0))).toEqual(['b']);
    expect(names(chooseHosts(hosts, [on('a'), on('b'), on('b')], new HostBackoff(), 0))).toBe(
      "every host is full (a 1/1, b 2/2); add hosts or slots to the class's parameters, or lower maxReplicas",
    );
  });

  it('skips a backed-off host while another has room, and names host and SSH error when none can', () => {
    const backoff = new HostBackoff(1000, 8000);
    backoff.fail('a', 'connect ECONNREFUSED 127.0.0.1:22', 0);
    expect(names(chooseHosts([host('a'), host('b')], [], backoff, 500))).toEqual(['b']);
    expect(names(chooseHosts([host('a'), host('b')], [on('b'), on('b')], backoff, 500))).toBe(
      'no host with a free slot can be reached: a: connect ECONNREFUSED 127.0.0.1:22 (retried in 1 s)',
    );
    // The backoff ends, doubles on the next failure, and a success clears it.
    expect(names(chooseHosts([host('a')], [], backoff, 1000))).toEqual(['a']);
    expect(backoff.fail('a', 'x', 1000).until).toBe(3000);
    expect(backoff.fail('a', 'x', 3000).until).toBe(7000);
    expect(backoff.fail('a', 'x', 7000).until).toBe(15000);
    backoff.succeed('a');
    expect(backoff.backedOff('a', 7000)).toBeUndefined();
  });

  it('never offers a full host, always offers every host with room, deterministically', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 10 }),
        (slots, placed) => {
          const hosts = slots.map((s, i) => host(`h${i}`, s));
          const placements = placed.filter((i) => i < hosts.length).map((i) => on(`h${i}`));
          const a = chooseHosts(hosts, placements, new HostBackoff(), 0);
          const b = chooseHosts([...hosts].reverse(), [...placements].reverse(), new HostBackoff(), 0);
          expect(names(a)).toEqual(names(b));
          const used = (n: string) => placements.filter((p) => p[HOST_ANNOTATION] === n).length;
          const withRoom = hosts.filter((h) => used(h.name) < h.slots).map((h) => h.name);
          if (a.ok) {
            expect([...a.candidates.map((c) => c.host.name)].sort()).toEqual(withRoom.sort());
            const counts = a.candidates.map((c) => c.used);
            expect(counts).toEqual([...counts].sort((x, y) => x - y));
          } else expect(withRoom).toEqual([]);
        },
      ),
    );
  });
});
