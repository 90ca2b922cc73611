import { EmuRequest, EmuResponse } from '../../core/emulator-kit/types';

/** The API version the real platform announces (`TFP-API-Version`). */
export const API_VERSION = '2.5';

/**
 * `GET /api/v2/ping`, which the platform's own Go client calls when it starts: 204 with the
 * rate-limit headers (added by the caller) and the API version, with or without a token.
 * undefined for any other request.
 */
export function ping(req: EmuRequest): EmuResponse | undefined {
  if (req.path.replace(/\/+$/, '') !== '/api/v2/ping' || (req.method !== 'GET' && req.method !== 'HEAD')) return undefined;
  return { status: 204, headers: { 'TFP-API-Version': API_VERSION } };
}
