import { OutputSchema } from '../core/schema';

/**
 * The lease of credentials the service issues (a dynamic database user, a checked-out account), as
 * outputs kept in state beside them: a plan reuses them while more than a third of it is left
 * (`DataSourceHandler.leaseOf`), instead of issuing new ones on every run.
 */
export const LEASE_OUTPUTS: Readonly<Record<string, OutputSchema>> = {
  leaseId: { type: 'string' },
  leaseDuration: { type: 'number' },
  leaseRenewable: { type: 'boolean' },
  issuedAt: { type: 'string' },
  expiresAt: { type: 'string' },
};

/** The lease fields of a secrets envelope. */
export interface LeaseEnvelope {
  readonly lease_id: string;
  readonly lease_duration: number;
  readonly renewable: boolean;
}

/** The lease outputs of an answer received now. A lease of 0 seconds does not expire. */
export function leaseOutputs(l: LeaseEnvelope, now = Date.now()): Record<string, unknown> {
  return {
    leaseId: l.lease_id, leaseDuration: l.lease_duration, leaseRenewable: l.renewable,
    issuedAt: new Date(now).toISOString(),
    expiresAt: l.lease_duration > 0 ? new Date(now + l.lease_duration * 1000).toISOString() : '',
  };
}

/** When kept credentials were issued and when their lease ends; undefined for outputs without a lease (read again). */
export function leaseOf(outputs: Record<string, unknown>): { issuedAt: number; expiresAt: number } | undefined {
  const issuedAt = Date.parse(String(outputs.issuedAt));
  if (Number.isNaN(issuedAt)) return undefined;
  const expiresAt = outputs.expiresAt === '' ? Number.MAX_SAFE_INTEGER : Date.parse(String(outputs.expiresAt));
  return Number.isNaN(expiresAt) ? undefined : { issuedAt, expiresAt };
}
