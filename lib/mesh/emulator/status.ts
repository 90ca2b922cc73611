import { EmuRequest, EmuResponse } from '../../core/emulator-kit/types';

/** The address the emulated server reports as the cluster leader (its RPC address). */
export const LEADER_ADDRESS = '127.0.0.1:8300';

/**
 * `GET /v1/status/leader` (no token needed), as the mesh answers it: the leader's address as a
 * JSON string. `GET /v1/status/peers` lists the one server. undefined for any other request.
 */
export function status(req: EmuRequest): EmuResponse | undefined {
  if (req.method !== 'GET') return undefined;
  const path = req.path.replace(/\/+$/, '');
  if (path === '/v1/status/leader') return { status: 200, body: JSON.stringify(LEADER_ADDRESS), contentType: 'application/json' };
  if (path === '/v1/status/peers') return { status: 200, body: [LEADER_ADDRESS] };
  return undefined;
}
