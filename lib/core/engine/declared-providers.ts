import { apiProfiles } from '../http/api-profile';
import { DesiredStack, ProviderConfig } from '../model';
import { StateRecord } from '../state/state-model';

/** A record's provider that the app does not declare: reported, never contacted. */
export class UndeclaredProviderError extends Error {}

const identity = (p: ProviderConfig): string => JSON.stringify([p.api, p.address ?? '', p.addressEnv, p.tokenEnv]);

/** An address for a message: no user or password, no query. */
function shown(address: string): string {
  try {
    const u = new URL(address);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return JSON.stringify(address.slice(0, 100));
  }
}

/**
 * The providers an app declares (those of its constructs, and each API's default variables), by
 * which objects that exist only in state are reached. State is data, never instructions: a record's
 * provider (an address, a token variable, TLS files) is only a key to find the app's own, so that
 * whoever can write state cannot make converge send a credential to an address of their choosing.
 */
export class DeclaredProviders {
  private readonly byIdentity = new Map<string, ProviderConfig>();

  constructor(desired: DesiredStack) {
    // The app's own first: they carry its TLS settings.
    const seen = new Set<ProviderConfig>(); // objects of one provider share its object (readSynthDir)
    for (const r of Object.values(desired.resources)) {
      if (seen.has(r.provider)) continue;
      seen.add(r.provider);
      const id = identity(r.provider);
      if (!this.byIdentity.has(id)) this.byIdentity.set(id, r.provider);
    }
    for (const { api, variables } of apiProfiles()) {
      const p = { api, addressEnv: variables.addressEnv, tokenEnv: variables.tokenEnv } as ProviderConfig;
      if (!this.byIdentity.has(identity(p))) this.byIdentity.set(identity(p), p);
    }
  }

  /** The app's provider with the same API, address and variables as `recorded`, or undefined. */
  public resolve(recorded: ProviderConfig | undefined): ProviderConfig | undefined {
    return recorded && typeof recorded === 'object' ? this.byIdentity.get(identity(recorded)) : undefined;
  }

  /** The app's provider for the record at `address`; throws `UndeclaredProviderError` naming it when there is none. */
  public forRecord(address: string, rec: StateRecord): ProviderConfig {
    const p = this.resolve(rec.provider);
    if (p) return p;
    const r = (rec.provider ?? {}) as Partial<ProviderConfig>;
    const where = r.address ? `address ${shown(String(r.address))}` : `address from ${String(r.addressEnv)}`;
    throw new UndeclaredProviderError(`${address} (${rec.kind}): its state record names a ${String(r.api)} provider not declared by the app ` +
      `(${where}, token from ${String(r.tokenEnv)}); converge reaches objects only through the app's providers, never through ` +
      `an address or variable read from state. Declare that provider in the app again, or forget the record: converge state rm ${address}`);
  }
}
