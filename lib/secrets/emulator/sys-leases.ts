import { EmuResponse } from '../../core/emulator-kit/types';
import { EngineLeases } from './engine';
import { envelope, errors, noContent, objectBody, RequestError } from './responses';

/**
 * `sys/leases/lookup`, `sys/leases/renew` and `sys/leases/revoke` (also `revoke/<lease id>`), as the
 * real service answers them: `PUT`/`POST` with `{"lease_id"}`; lookup answers `data` with `id`,
 * `issue_time`, `expire_time`, `last_renewal`, `renewable` and `ttl` (400 "invalid lease" for a lease
 * that is unknown, revoked or expired); renew answers the lease (`lease_duration`, 400 "lease not
 * found"); revoke answers 204, for an unknown lease too. The engine that issued the lease (the mount
 * its id starts with) does the work.
 */
export async function sysLeases(op: string, method: string, body: unknown, leasesOf: (leaseId: string) => EngineLeases | undefined,
  now: number): Promise<EmuResponse | undefined> {
  const m = /^(lookup|renew|revoke)(?:\/(.+))?$/.exec(op);
  if (!m) return undefined;
  if (method !== 'POST') return errors(405, 'unsupported operation');
  const b = objectBody(body);
  const id = typeof b.lease_id === 'string' && b.lease_id !== '' ? b.lease_id : m[2];
  if (!id) throw new RequestError(400, 'lease_id must be specified');
  const leases = leasesOf(id);
  if (m[1] === 'lookup') {
    const l = leases?.lookup(id);
    if (!l) throw new RequestError(400, 'invalid lease');
    return envelope({
      id, path: id.slice(0, id.lastIndexOf('/')), issue_time: new Date(l.issuedMs).toISOString(), expire_time: new Date(l.expiresMs).toISOString(),
      last_renewal: l.lastRenewalMs === undefined ? null : new Date(l.lastRenewalMs).toISOString(), renewable: true,
      ttl: Math.max(0, Math.round((l.expiresMs - now) / 1000)),
    });
  }
  if (m[1] === 'renew') {
    const increment = typeof b.increment === 'number' ? b.increment : Number(b.increment ?? 0) || 0;
    const l = leases?.renew(id, increment);
    if (!l) throw new RequestError(400, 'lease not found');
    const res = envelope(null);
    return { ...res, body: { ...(res.body as object), lease_id: id, renewable: true, lease_duration: Math.max(0, Math.round((l.expiresMs - now) / 1000)) } };
  }
  if (leases?.lookup(id)) await leases.revoke(id);
  return noContent();
}
