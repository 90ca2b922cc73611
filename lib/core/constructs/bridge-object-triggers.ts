import * as crypto from 'crypto';
import { hmac, stateKey } from '../crypto/state-key';
import { openSynthSeal } from '../crypto/synth-seal';
import { dataSourceHandler, resourceHandler } from '../engine/registry';
import { FieldSchema } from '../schema/kind-schema';

/**
 * The prefix of the bridge's per-object triggers: `object:<address>` holds that object's desired
 * state, so that `terraform plan` (and `cdktf diff`) shows, field by field, what the replacement of
 * the bridge's `apply` resource will make converge change.
 */
export const OBJECT_TRIGGER_PREFIX = 'object:';

/**
 * One trigger per converge object of the stack: its desired state (kind, spec, provider, dependencies,
 * removal policy) as canonical JSON, which Terraform renders as `jsonencode({...})` and diffs per field.
 * Secrets are never in it: a secret read from the environment or a file shows its source, an in-app
 * secret an HMAC of its value (under the state key, as converge's state keeps it), both marked sensitive.
 */
export function objectTriggers(resources: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.keys(resources).sort()
    .map((address) => [`${OBJECT_TRIGGER_PREFIX}${address}`, canonicalJson(maskObject(resources[address] as DesiredLike))]));
}

interface DesiredLike { readonly kind: string; readonly dataSource?: boolean; readonly spec?: Record<string, unknown>; readonly [k: string]: unknown }

/**
 * The object with its secrets masked: every secret source, and every value of a field its kind marks
 * sensitive (converge's plans show those as "(sensitive)" too: a KV secret's `data`, a password).
 * A kind this process does not know (its handlers not loaded) shows no spec values at all.
 */
function maskObject(r: DesiredLike): unknown {
  const sensitive = sensitiveFieldsOf(r);
  const spec = Object.fromEntries(Object.entries(r.spec ?? {}).map(([k, v]) =>
    [k, sensitive === 'all' || sensitive.has(k) ? maskLeaves(v) : maskSecrets(v)]));
  return { ...maskSecrets(r) as Record<string, unknown>, spec };
}

const holdsSecret = (f: FieldSchema | undefined): boolean => f !== undefined && (f.sensitive === true || f.type === 'secret' || f.mayHoldSecret === true);

function sensitiveFieldsOf(r: DesiredLike): Set<string> | 'all' {
  try {
    const h = r.dataSource ? dataSourceHandler(r.kind) : resourceHandler(r.kind);
    const fields = h.schema?.fields ?? {};
    const listed = 'sensitiveFields' in h ? (h.sensitiveFields ?? []) : [];
    return new Set([...listed, ...Object.keys(fields).filter((k) => holdsSecret(fields[k]))]);
  } catch {
    return 'all';
  }
}

/** Every leaf masked: a secret source by its marker, a plain value by an HMAC under the state key (never created here). */
function maskLeaves(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(maskLeaves);
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (o.$secret !== null && typeof o.$secret === 'object') return secretMarker(o.$secret as Record<string, unknown>);
    if ('$ref' in o) return maskSecrets(o);
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, maskLeaves(x)]));
  }
  if (v === undefined || v === null) return v;
  let key: Buffer;
  try { key = stateKey({ create: false }); } catch { return '(sensitive)'; }
  return `(sensitive, hmac ${crypto.createHmac('sha256', key).update(JSON.stringify(v)).digest('hex').slice(0, 16)})`;
}

/** The text a secret shows in a trigger: a marker and its source, never its value. */
function secretMarker(source: Record<string, unknown>): string {
  if (typeof source.env === 'string') return `(sensitive, from env ${source.env})`;
  if (typeof source.file === 'string') return `(sensitive, from file ${source.file})`;
  if (typeof source.sealed === 'string') {
    let digest: string;
    try { digest = hmac(openSynthSeal(source.sealed)).slice(0, 16); } catch { digest = 'unreadable'; }
    return `(sensitive, hmac ${digest})`;
  }
  return '(sensitive)';
}

function maskSecrets(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(maskSecrets);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  if (o.$secret !== null && typeof o.$secret === 'object') return secretMarker(o.$secret as Record<string, unknown>);
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, maskSecrets(x)]));
}

/** JSON with object keys sorted: the same desired state always renders the same text (no spurious replacement). */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
