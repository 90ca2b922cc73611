import * as api from '../../index';
import { standardVariablesOf } from '../../core/reserved-variables';
import { ApiClients } from '../../core/engine/api-clients';
import { registeredKinds, resourceHandler } from '../../core/engine/registry';
import { EnumMember, ExistingLookup, MapLiteral, SecretFromEnv } from '../../core/migrate/terraform-mapping';
import { ApiName, ProviderConfig } from '../../core/model';
import { FieldSchema, FieldsSchema } from '../../core/schema';
import { Output } from '../output';
import { AppOptions, loadStacks, selectStacks } from '../workspace';
import { generateCode, Language } from './codegen';
import { GeneratedConstruct } from './plan-migration';

/** The enum of converge's API (`platform.CollaboratorAuthPolicy`) whose values are exactly a field's `oneOf`. */
function enumFor(oneOf: readonly unknown[] | undefined, value: unknown): EnumMember | undefined {
  if (!oneOf || typeof value !== 'string') return undefined;
  for (const ns of ['platform', 'secrets', 'mesh'] as const) {
    for (const [name, e] of Object.entries(api[ns] as Record<string, unknown>)) {
      if (!e || typeof e !== 'object') continue;
      const values = Object.values(e as Record<string, unknown>);
      if (!values.length || !values.every((x) => typeof x === 'string')) continue;
      if (values.length === oneOf.length && oneOf.every((x) => values.includes(x as string))) {
        const member = Object.entries(e as Record<string, string>).find(([, x]) => x === value)?.[0];
        if (member) return new EnumMember(`${ns}.${name}`, member, value);
      }
    }
  }
  return undefined;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** `app-db` + `password` -> `APP_DB_PASSWORD`. */
const envName = (...parts: string[]) => parts.join('_').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '');

/** The observed fields as props: defaults left out, secrets read from the environment, enums as members. */
function propsOf(fields: FieldsSchema, observed: Record<string, unknown>, address: string, secrets: SecretFromEnv[], top: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const secret = (p: string) => {
    const s = new SecretFromEnv(envName(address, p), p, '');
    secrets.push(s);
    return s;
  };
  for (const [key, f] of Object.entries(fields) as [string, FieldSchema][]) {
    if (f.local && !f.identity) continue;
    const v = observed[key];
    if (f.type === 'secret' || (f.sensitive && f.type !== 'json')) {
      if (v !== undefined || f.required) out[key] = secret(key);
      continue;
    }
    if (v === undefined || v === null) continue;
    const dflt = typeof f.default === 'function' ? undefined : f.default;
    if (!f.required && !(f.identity && top) && dflt !== undefined && same(v, dflt)) continue;
    if (f.type === 'json' && f.sensitive && v && typeof v === 'object') {
      out[key] = new MapLiteral(Object.fromEntries(Object.keys(v).map((k) => [k, secret(`${key}.${k}`)])));
    } else if (f.type === 'object' && f.fields) {
      out[key] = propsOf(f.fields, v as Record<string, unknown>, address, secrets, false);
    } else if (f.type === 'object-list' && f.fields) {
      out[key] = (v as Record<string, unknown>[]).map((x) => propsOf(f.fields!, x, address, secrets, false));
    } else if (f.type === 'object-map' && f.fields) {
      out[key] = new MapLiteral(Object.fromEntries(Object.entries(v as Record<string, Record<string, unknown>>)
        .map(([k, x]) => [k, propsOf(f.fields!, x, address, secrets, false)])));
    } else if (f.type === 'string-map' || f.type === 'json') {
      out[key] = new MapLiteral(v as Record<string, unknown>);
    } else {
      out[key] = enumFor(f.oneOf, v) ?? v;
    }
  }
  return out;
}

/**
 * The identity fields a read leaves out (they are the id: a KV secret's mount and path), from the id:
 * the split of its segments whose natural id is the id again.
 */
function identityFromId(fields: FieldsSchema, observed: Record<string, unknown>, id: string,
  naturalId: (spec: Record<string, unknown>) => string | undefined): Record<string, unknown> {
  const missing = Object.entries(fields).filter(([k, f]) => f.identity && observed[k] === undefined).map(([k]) => k);
  if (!missing.length) return {};
  const segs = id.split('/');
  const candidates: Record<string, unknown>[] = missing.length === 1
    ? segs.map((_, i) => ({ [missing[0]]: segs.slice(i).join('/') }))
    : segs.slice(1).map((_, i) => ({ [missing[0]]: segs.slice(0, i + 1).join('/'), [missing[1]]: segs.slice(i + 1).join('/') }));
  return candidates.find((c) => naturalId({ ...observed, ...c }) === id) ?? {};
}

/** `platform.Organization.acme` -> the kind and the address; else the kind of the app's construct at ADDRESS. */
function kindAndAddress(address: string, opts: AppOptions): { kind: string; address: string; provider?: ProviderConfig } {
  const kind = registeredKinds().resources.find((k) => address.startsWith(`${k}.`));
  if (kind) return { kind, address: address.slice(kind.length + 1) };
  const [desired] = selectStacks(loadStacks(opts), opts.stack);
  const r = desired.resources[address];
  if (!r || r.dataSource) {
    throw new Error(`no construct at address "${address}" in stack ${desired.stack}: give the kind with the address, e.g. secrets.KvSecret.${address}`);
  }
  return { kind: r.kind, address, provider: r.provider };
}

/**
 * `converge import --generate ADDRESS ID`: the construct's code for what the server holds of object ID
 * (secrets read from the environment, never printed). Nothing is imported or written.
 */
export async function generateFromServer(addressArg: string, id: string, opts: AppOptions & { language?: string }, out: Output): Promise<number> {
  const { kind, address, provider } = kindAndAddress(addressArg, opts);
  const handler = resourceHandler(kind);
  if (!handler.schema) throw new Error(`${kind} declares no schema: its code cannot be generated`);
  const apiName = handler.api as ApiName;
  const clients = new ApiClients();
  try {
    const normalised = handler.importId ? handler.importId(id) : id;
    const observed = await handler.read({ address, http: clients.for(provider ?? { api: apiName, ...standardVariablesOf(apiName) }) }, normalised, undefined);
    if (!observed) throw new Error(`${address}: no ${kind} with id "${normalised}" exists`);
    const secrets: SecretFromEnv[] = [];
    const fields = { ...identityFromId(handler.schema.fields, observed.fields as Record<string, unknown>, normalised, (spec) => handler.naturalId?.(spec)),
      ...observed.fields };
    const props = propsOf(handler.schema.fields, fields, address, secrets, true);
    if (apiName === 'platform' && typeof props.organization === 'string') {
      props.organization = new ExistingLookup('platform.Organization', 'fromName', `org-${props.organization}`, [props.organization]);
    }
    const lookups = Object.values(props).filter((v): v is ExistingLookup => v instanceof ExistingLookup);
    const construct: GeneratedConstruct = { tfAddress: `${kind} ${normalised}`, constructId: address, varName: 'imported', className: kind, kind,
      props, importId: normalised, secrets };
    const language = (opts.language ?? 'typescript') as Language;
    if (language !== 'typescript' && language !== 'python') throw new Error(`--language "${opts.language}" is not one converge writes (typescript, python)`);
    out.result(generateCode({ constructs: [construct], lookups, skipped: [], referenced: new Set() }, language, `${kind} ${normalised} as the server holds it`));
    if (secrets.length) {
      out.result(`Set ${secrets.map((s) => s.name).join(', ')} to the secret value(s) (the server's are not printed), then: converge import ${address} ${normalised}`);
    } else {
      out.result(`Then: converge import ${address} ${normalised}`);
    }
    return 0;
  } finally {
    await clients.close();
  }
}
