/**
 * What the mesh checks of intentions against the rest of the configuration: L7 permissions
 * (HTTP paths, methods, headers) need a destination whose protocol is of the HTTP family.
 */
import { isL7Protocol } from './compile';
import {
  ConfigEntry, entryNamespace, PROXY_DEFAULTS, rawField, SERVICE_DEFAULTS, SERVICE_INTENTIONS, ServiceIntentionsEntry,
} from './entries';

/** The protocol of a service as the mesh decides it: its service-defaults, else proxy-defaults' `protocol`, else tcp. */
export function serviceProtocol(entries: readonly ConfigEntry[], namespace: string, service: string): string {
  const defaults = entries.find((e) => e.Kind === SERVICE_DEFAULTS && e.Name === service && entryNamespace(e) === namespace);
  if (defaults && defaults.Kind === SERVICE_DEFAULTS && defaults.Protocol) return defaults.Protocol.toLowerCase();
  const proxy = entries.find((e) => e.Kind === PROXY_DEFAULTS);
  const config = proxy && proxy.Kind === PROXY_DEFAULTS ? proxy.Config : undefined;
  const p = config ? rawField(config, 'protocol') : undefined;
  return typeof p === 'string' && p ? p.toLowerCase() : 'tcp';
}

/** Whether an intentions entry has a source with L7 permissions. */
export function hasPermissions(e: ServiceIntentionsEntry): boolean {
  return (e.Sources ?? []).some((s) => (s.Permissions ?? []).length > 0);
}

/** The mesh's refusals of intentions with L7 permissions whose destination speaks no HTTP-family protocol, one per entry. */
export function l7IntentionErrors(entries: readonly ConfigEntry[]): string[] {
  const out: string[] = [];
  for (const e of entries) {
    if (e.Kind !== SERVICE_INTENTIONS || !hasPermissions(e)) continue;
    const protocol = serviceProtocol(entries, entryNamespace(e), e.Name);
    if (!isL7Protocol(protocol)) out.push(`service "${e.Name}" has protocol "${protocol}", which is incompatible with L7 intentions permissions`);
  }
  return out;
}

/** The first refusal `after` has that `before` did not (a write that newly breaks an intention). */
export function newL7IntentionError(before: readonly ConfigEntry[], after: readonly ConfigEntry[]): string | undefined {
  const old = new Set(l7IntentionErrors(before));
  return l7IntentionErrors(after).find((m) => !old.has(m));
}
