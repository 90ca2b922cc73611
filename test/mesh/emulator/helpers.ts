import { Clock } from '../../../lib/core/clock';
import { ServedApi } from '../../../lib/core/emulator-kit/server';
import { MeshEmulator } from '../../../lib/mesh/emulator/mesh-emulator';

export const MGMT = 'mgmt-token-for-tests';
export const TD = 'test-cluster.consul';

export interface Served { api: ServedApi; emu: MeshEmulator; call: Call }
export type Call = (method: string, path: string, opts?: { body?: unknown; token?: string | null; headers?: Record<string, string> })
  => Promise<{ status: number; headers: Headers; body: any; text: string }>;

/** A served mesh emulator; `clock` is what its blocking queries wait on (default: the system clock). */
export async function serveMesh(extra: { datacenters?: string[]; dataDir?: string; clock?: Clock } = {}): Promise<Served> {
  const emu = new MeshEmulator({ managementToken: MGMT, trustDomain: TD, datacenters: extra.datacenters ?? ['dc2', 'dc3'], clock: extra.clock });
  const api = await ServedApi.start(emu, { port: 0, dataDir: extra.dataDir });
  const call: Call = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token !== null) headers['X-Mesh-Token'] = opts.token ?? MGMT;
    const res = await fetch(`${api.address}${path}`, {
      method, headers, body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
    });
    const text = await res.text();
    let body: any = text;
    try { body = JSON.parse(text); } catch { /* plain text */ }
    return { status: res.status, headers: res.headers, body, text };
  };
  return { api, emu, call };
}
