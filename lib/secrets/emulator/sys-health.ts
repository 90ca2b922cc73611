import { Clock } from '../../core/clock';
import { EmuRequest, EmuResponse, json } from '../../core/emulator-kit/types';

/** The version the emulated service reports. */
export const SERVICE_VERSION = '1.13.0';

/**
 * `GET /v1/sys/health` (and `HEAD`), which needs no token, as the real service answers it when
 * initialized, unsealed and active: 200 with the health document. undefined for any other request.
 */
export function sysHealth(req: EmuRequest, clock: Clock): EmuResponse | undefined {
  if (req.path.replace(/\/+$/, '') !== '/v1/sys/health' || (req.method !== 'GET' && req.method !== 'HEAD')) return undefined;
  return json(200, {
    initialized: true, sealed: false, standby: false, performance_standby: false,
    replication_performance_mode: 'disabled', replication_dr_mode: 'disabled',
    server_time_utc: Math.floor(clock.now() / 1000), version: SERVICE_VERSION,
    cluster_name: 'emulator-cluster', cluster_id: '5f2b6c1e-7d3a-4e8b-9c0d-1a2b3c4d5e6f',
  });
}
