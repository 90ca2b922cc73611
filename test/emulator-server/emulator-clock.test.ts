import { Emulator } from '../../lib/bundled-emulator/bundled-emulator';
import { ManualClock } from '../support/fake-clock';

/** The bundled emulator hands its clock to the APIs: what they tell of time, and when things expire, follow it. */
test('Emulator.start({ clock }): the secrets API tells time and expires versions by the given clock', async () => {
  const clock = new ManualClock();
  const emu = await Emulator.start({ platformPort: 0, secretsPort: 0, meshPort: 0, clock });
  try {
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${emu.env.SECRETS_ADDR}${path}`, {
        method, headers: { 'x-secrets-token': emu.env.SECRETS_TOKEN, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json().catch(() => undefined) as any };
    };
    expect((await call('GET', '/v1/sys/health')).body.server_time_utc).toBe(Math.floor(clock.now() / 1000));
    await call('POST', '/v1/secret/metadata/exp', { delete_version_after: '1h' });
    const w = await call('POST', '/v1/secret/data/exp', { data: { a: 1 } });
    expect(Date.parse(w.body.data.created_time)).toBe(clock.now());
    clock.advance(3600_000 - 1);
    expect((await call('GET', '/v1/secret/data/exp')).status).toBe(200);
    clock.advance(2);
    expect((await call('GET', '/v1/secret/data/exp')).status).toBe(404);
    expect((await call('GET', '/v1/sys/health')).body.server_time_utc).toBe(Math.floor(clock.now() / 1000));
  } finally {
    await emu.stop();
  }
});

test('Emulator.start({ clock }): a mesh blocking query waits on the given clock', async () => {
  const clock = new ManualClock();
  const emu = await Emulator.start({ platformPort: 0, secretsPort: 0, meshPort: 0, clock });
  try {
    let answered = false;
    const answer = fetch(`${emu.env.MESH_HTTP_ADDR}/v1/discovery-chain/web?index=1&wait=1m`, { headers: { 'x-mesh-token': emu.env.MESH_HTTP_TOKEN } })
      .then((r) => { answered = true; return r; });
    // Turns of the event loop, no time: until the query waits on the clock.
    while (!clock.waiting && !answered) await new Promise((r) => setImmediate(r));
    expect(answered).toBe(false);
    clock.advance(60_000 - 1);
    expect(clock.waiting).toBe(1);
    clock.advance(1);
    const r = await answer;
    expect(r.status).toBe(200);
    expect(r.headers.get('x-mesh-index')).toBe('1');
  } finally {
    await emu.stop();
  }
});
