import { Watchers } from '../../../lib/mesh/emulator/blocking';

// The default (system) clock, as `converge emulator` runs it: jest's fake timers stand in for
// `setTimeout`, so the waits are checked by the timers they leave, not by elapsed time.
beforeEach(() => { jest.useFakeTimers(); });
afterEach(() => { jest.useRealTimers(); });

const web = { kind: 'service-resolver', namespace: 'default', name: 'web' };
const other = { kind: 'service-resolver', namespace: 'default', name: 'other' };

test('on the system clock, a wait woken by a relevant change answers and drops its timer', async () => {
  const w = new Watchers();
  let done = false;
  const waiting = w.wait(10 * 60_000, (c) => c.name === 'web').then(() => { done = true; });
  expect(jest.getTimerCount()).toBe(1);
  w.notify(other);
  await Promise.resolve();
  expect(done).toBe(false);
  w.notify(web);
  await waiting;
  // No 10-minute timer is left holding the process after the query was answered.
  expect(jest.getTimerCount()).toBe(0);
});

test('on the system clock, a wait answers when its timer fires; stopping answers every wait', async () => {
  const w = new Watchers();
  let done = false;
  const waiting = w.wait(50, () => true).then(() => { done = true; });
  jest.advanceTimersByTime(49);
  await Promise.resolve();
  expect(done).toBe(false);
  jest.advanceTimersByTime(1);
  await waiting;
  const a = w.wait(60_000, () => false);
  const b = w.wait(60_000, () => false);
  w.wakeAll();
  await Promise.all([a, b]);
  expect(jest.getTimerCount()).toBe(0);
});
