/** The bound on writes in flight: never more than its capacity, urgent tasks before waiting ones. */
import { describe, expect, it } from '@jest/globals';
import { Limiter } from '../../src/kube/limiter';

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Tasks that finish when the test lets them; `started` lists them in the order they began. */
function heldTasks() {
  const started: string[] = [];
  const release = new Map<string, () => void>();
  const task = (name: string) => () =>
    new Promise<void>((resolve) => {
      started.push(name);
      release.set(name, resolve);
    });
  return { started, task, finish: (name: string) => release.get(name)!() };
}

describe('Limiter', () => {
  it('runs at most its capacity at once and starts waiting tasks in arrival order', async () => {
    const limiter = new Limiter(2);
    const { started, task, finish } = heldTasks();
    const all = limiter.forEach(['a', 'b', 'c', 'd'], (name) => task(name)());
    await settle();
    expect(started).toEqual(['a', 'b']);
    finish('b');
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    finish('a');
    finish('c');
    await settle();
    finish('d');
    await all;
    expect(started).toEqual(['a', 'b', 'c', 'd']);
  });

  it('gives a freed slot to an urgent task before the others waiting', async () => {
    const limiter = new Limiter(1);
    const { started, task, finish } = heldTasks();
    const first = limiter.run(task('first'));
    const waiting = limiter.run(task('waiting'));
    const urgent = limiter.run(task('urgent'), true);
    await settle();
    finish('first');
    await settle();
    expect(started).toEqual(['first', 'urgent']);
    finish('urgent');
    await settle();
    finish('waiting');
    await Promise.all([first, waiting, urgent]);
    expect(started).toEqual(['first', 'urgent', 'waiting']);
  });
});
