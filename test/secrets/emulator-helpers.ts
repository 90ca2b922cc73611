import { Clock } from '../../lib/core/clock';
import { ServedApi } from '../../lib/core/emulator-kit/server';
import { SecretsEmulator } from '../../lib/secrets/emulator/secrets-emulator';
import { ManualClock } from '../support/fake-clock';

export const ROOT_TOKEN = 'root-token-for-tests';

/** Starts a secrets emulator on a free port (its engines telling time by `clock`: the system's by default). */
export async function startSecrets(mounts?: Record<string, string>, clock?: Clock): Promise<ServedApi> {
  return ServedApi.start(new SecretsEmulator({ rootToken: ROOT_TOKEN, mounts, clock }), { port: 0 });
}

/**
 * Moves the clock of a served secrets emulator forward by `ms`, then waits until what its timers
 * did meanwhile (a lease revoked, an account checked in, a rotation) has finished.
 */
export async function advance(served: ServedApi, clock: ManualClock, ms: number): Promise<void> {
  clock.advance(ms);
  await (served.api as SecretsEmulator).settled();
}

export interface Answer {
  status: number;
  body: any;
  contentType: string | null;
}

/** One raw HTTP call, so that tests see exactly the status and body the API sends. */
export async function call(served: ServedApi, method: string, path: string,
  opts: { body?: unknown; rawBody?: string; token?: string | null; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token !== null) headers['x-secrets-token'] = opts.token ?? ROOT_TOKEN;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${served.address}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, contentType: res.headers.get('content-type') };
}
