import { DataSourceHandler, HandlerContext } from '../../core/engine/handler';
import { OutputSchema } from '../../core/schema';
import { SecretsClient } from '../client/secrets-client';

/**
 * The lease of credentials the service issues (a dynamic database user, a checked-out account, a mesh
 * token), as outputs kept in state beside them: a plan reuses them while more than a third of it is
 * left (`DataSourceHandler.leaseOf`), instead of issuing new ones on every run. Every credential data
 * source has these outputs, under these names.
 */
export const LEASE_OUTPUTS: Readonly<Record<string, OutputSchema>> = {
  leaseId: { type: 'string' },
  leaseDuration: { type: 'number' },
  leaseRenewable: { type: 'boolean' },
  leaseStartTime: { type: 'string' },
  leaseExpiresAt: { type: 'string' },
};

/** The lease fields of a secrets envelope. */
export interface LeaseFields {
  readonly lease_id: string;
  readonly lease_duration: number;
  readonly renewable: boolean;
}

/** The lease outputs of an answer received now. A lease of 0 seconds has no end (`leaseExpiresAt` ''). */
export function leaseOutputs(l: LeaseFields, now = Date.now()): Record<string, unknown> {
  const duration = l.lease_duration ?? 0;
  return {
    leaseId: l.lease_id ?? '', leaseDuration: duration, leaseRenewable: l.renewable ?? false,
    leaseStartTime: new Date(now).toISOString(),
    leaseExpiresAt: duration > 0 ? new Date(now + duration * 1000).toISOString() : '',
  };
}

type Window = { issuedAt: number; expiresAt: number } | undefined;

function window(outputs: Record<string, unknown>, noLease: (issuedAt: number) => Window): Window {
  const issuedAt = Date.parse(String(outputs.leaseStartTime));
  if (Number.isNaN(issuedAt)) return undefined;
  const duration = Number(outputs.leaseDuration);
  return duration > 0 ? { issuedAt, expiresAt: issuedAt + duration * 1000 } : noLease(issuedAt);
}

/**
 * `DataSourceHandler.leaseOf` for credentials every read issues anew (a database user, a check-out, a
 * mesh token): kept while their lease lasts, and kept for good when it has no end (reading again would
 * issue more).
 */
export function issuedLease(outputs: Record<string, unknown>): Window {
  return window(outputs, (issuedAt) => ({ issuedAt, expiresAt: Number.MAX_SAFE_INTEGER }));
}

/**
 * `DataSourceHandler.leaseOf` for credentials the service stores and answers again (an organization's
 * platform token, until it is rotated): kept while a lease lasts; without one, read again on each plan
 * (nothing new is issued, and a rotation outside converge is seen).
 */
export function storedLease(outputs: Record<string, unknown>): Window {
  return window(outputs, () => undefined);
}

/**
 * Whether a lease kept in state still lives on the service: one `sys/leases/lookup`. A lease revoked
 * outside converge (or gone with a restarted service) answers 400 "invalid lease".
 */
export async function leaseAlive(ctx: HandlerContext, outputs: Record<string, unknown>): Promise<boolean> {
  const id = outputs.leaseId;
  if (typeof id !== 'string' || id === '') return true;
  const res = await new SecretsClient(ctx.http).request<{ errors?: string[] }>({
    method: 'PUT', path: 'sys/leases/lookup', body: { lease_id: id }, accept: [400], constructPath: ctx.address,
  });
  if (res.status !== 400) return true;
  if ((res.body?.errors ?? []).some((m) => /invalid lease|lease not found/.test(m))) return false;
  throw new Error(`${ctx.address}: PUT /v1/sys/leases/lookup: 400: ${(res.body?.errors ?? []).join('; ')}`);
}

/** Revokes a lease kept in state (`sys/leases/revoke`): what the credentials gave stops now. False when there is none. */
export async function revokeLease(ctx: HandlerContext, outputs: Record<string, unknown>): Promise<boolean> {
  const id = outputs.leaseId;
  if (typeof id !== 'string' || id === '') return false;
  await new SecretsClient(ctx.http).request({ method: 'PUT', path: 'sys/leases/revoke', body: { lease_id: id }, constructPath: ctx.address });
  return true;
}

/**
 * What a credential data source whose every read issues a lease does with it: the plan looks the
 * kept lease up (one request) and issues new credentials when it is gone; destroy and the data
 * source's replacement revoke it. `effect` says what a revocation does (`its database user is dropped`).
 */
export function leasedCredentials(effect: string): Pick<DataSourceHandler, 'leaseAlive' | 'release' | 'releaseNote'> {
  return {
    leaseAlive,
    async release(ctx, outputs) {
      return (await revokeLease(ctx, outputs)) ? `revoked lease ${String(outputs.leaseId)}: ${effect}` : undefined;
    },
    releaseNote: (outputs) => (typeof outputs.leaseId === 'string' && outputs.leaseId !== '' ? `revokes lease ${outputs.leaseId}: ${effect}` : undefined),
  };
}
