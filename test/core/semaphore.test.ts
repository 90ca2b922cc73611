import { Semaphore } from '../../lib/core/engine/graph';

/**
 * A newcomer arriving after a task finished but before the waiter it woke has resumed must
 * not run alongside that waiter. The newcomer is started after 0..12 microtask hops, so one
 * of them lands in that window whatever the exact number of hops the runtime takes.
 */
describe('Semaphore', () => {
  test.each([1, 2, 3])('never runs more than its limit (%i) at once, however a newcomer is timed', async (limit) => {
    for (let hops = 0; hops <= 12; hops++) {
      const sem = new Semaphore(limit);
      let running = 0;
      let most = 0;
      const gates: (() => void)[] = [];
      const task = (gated: boolean) => async () => {
        running++;
        most = Math.max(most, running);
        if (gated) await new Promise<void>((r) => gates.push(r));
        else await null;
        running--;
      };
      const first = Array.from({ length: limit }, () => sem.run(task(true)));
      const waiter = sem.run(task(false));
      gates.splice(0).forEach((open) => open());
      for (let i = 0; i < hops; i++) await null;
      const newcomer = sem.run(task(false));
      await Promise.all([...first, waiter, newcomer]);
      expect({ hops, most }).toEqual({ hops, most: limit });
      expect(sem.running).toBe(0);
    }
  });

  test('a task that throws frees its slot', async () => {
    const sem = new Semaphore(1);
    await expect(sem.run(async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    await expect(sem.run(async () => 7)).resolves.toBe(7);
    expect(sem.running).toBe(0);
  });

  test('wakes thousands of waiters one at a time, in the order they came', async () => {
    const sem = new Semaphore(3);
    const order: number[] = [];
    let running = 0;
    let most = 0;
    await Promise.all(Array.from({ length: 5000 }, (_, i) => sem.run(async () => {
      running++;
      most = Math.max(most, running);
      order.push(i);
      await null;
      running--;
    })));
    expect(most).toBe(3);
    expect(order).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(sem.running).toBe(0);
  });
});
