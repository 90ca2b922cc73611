import { confinedSecretFile, describeSecretSource, forbiddenSecretVariable, systemPathReason } from '../crypto/secret-sources';
import { dataSourceHandler, resourceHandler } from '../engine/registry';
import { apiProfiles } from '../http/api-profile';
import { AttrRef, DesiredResource, DesiredStack, isAttrRef, isSecretRef, ProviderConfig } from '../model';
import { convergeOwnVariable, forbiddenProviderVariable, standardVariablesOf } from '../reserved-variables';
import { FieldSchema, FieldsSchema } from '../schema/kind-schema';

/**
 * The synthesized output is data the app wrote, and in CI the app is a pull request's code (or its
 * output, made in a job without secrets and read here with `--synth-dir`). These checks run on it
 * before anything is read or sent, so that it cannot name a secret converge would then send:
 * - a provider reads its token and address only from its API's standard variables, or from those the
 *   command line allows (`--provider-env`), and never from converge's own or another API's token;
 * - an address written in the output (a provider's `address`) is used only when the command line
 *   allows it (`--provider-address`): the token is sent there;
 * - a secret source (`{"$secret": …}`) is read only in a field its kind's schema marks sensitive.
 */

/** The variable that names more variables providers may read (comma-separated), as `--provider-env NAME` does. */
export const PROVIDER_ENV_VARIABLE = 'CONVERGE_PROVIDER_ENV';

/** The variable that names more addresses providers may send their token to (comma-separated), as `--provider-address URL` does. */
export const PROVIDER_ADDRESS_VARIABLE = 'CONVERGE_PROVIDER_ADDRESS';

let commandLineProviderEnv: readonly string[] = [];
let commandLineProviderAddresses: readonly string[] = [];

/** An address as compared: its scheme, host, port and path, without a trailing `/`; undefined when it is no http(s) URL. */
function addressKey(address: string): string | undefined {
  try {
    const u = new URL(address.trim());
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined;
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

/** The addresses the command line allows a provider of the synthesized output to give (`--provider-address`). */
export function setProviderAddresses(addresses: readonly string[]): void {
  const list = addresses.flatMap((a) => a.split(',')).map((a) => a.trim()).filter(Boolean);
  for (const a of list) if (!addressKey(a)) throw new Error(`--provider-address ${a}: not an http:// or https:// URL`);
  commandLineProviderAddresses = list;
}

/** The addresses a provider of the synthesized output may give (instead of reading its API's address variable). */
export function allowedProviderAddresses(env: NodeJS.ProcessEnv = process.env): Set<string> {
  const fromEnv = (env[PROVIDER_ADDRESS_VARIABLE] ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  return new Set([...commandLineProviderAddresses, ...fromEnv].map(addressKey).filter((a): a is string => a !== undefined));
}

/** The variables the command line allows providers to read (`--provider-env`), beside each API's standard ones. */
export function setProviderEnv(names: readonly string[]): void {
  const list = names.flatMap((n) => n.split(',')).map((n) => n.trim()).filter(Boolean);
  for (const n of list) {
    const own = convergeOwnVariable(n);
    if (own) throw new Error(`--provider-env ${n}: ${own}; a provider never reads it`);
  }
  commandLineProviderEnv = list;
}

/** The variables a provider may read beyond its API's standard ones. */
export function allowedProviderEnv(env: NodeJS.ProcessEnv = process.env): Set<string> {
  const fromEnv = (env[PROVIDER_ENV_VARIABLE] ?? '').split(',').map((n) => n.trim()).filter(Boolean);
  return new Set([...commandLineProviderEnv, ...fromEnv]);
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Refuses what a provider of the synthesized output may not name: variables (see above) and system files as TLS files. */
export function checkProviderSettings(r: DesiredResource, allowed: ReadonlySet<string>, tokenVariables: ReadonlySet<string>,
  addresses: ReadonlySet<string> = new Set()): void {
  const p = r.provider as Partial<ProviderConfig> | undefined;
  const where = `${r.path}: its provider`;
  const apiNames = apiProfiles().map((profile) => profile.api);
  if (!p || typeof p !== 'object' || !apiNames.includes(String(p.api))) throw new Error(`${where} names no known API (${apiNames.join(', ')})`);
  const api = p.api!;
  const std = standardVariablesOf(api);
  for (const [field, role, standard] of [['tokenEnv', 'token', std.tokenEnv], ['addressEnv', 'address', std.addressEnv]] as const) {
    const name = p[field];
    if (typeof name !== 'string' || !NAME.test(name)) throw new Error(`${where}'s ${field} is not an environment variable name`);
    const forbidden = forbiddenProviderVariable(api, name, role)
      ?? (role === 'address' && tokenVariables.has(name) ? `${name} is a provider's token variable, never an address` : undefined);
    if (forbidden) throw new Error(`${where}'s ${field} is refused: ${forbidden}`);
    if (name !== standard && !allowed.has(name)) {
      throw new Error(`${where}'s ${field} is ${name}: a provider reads only its API's standard variable (${standard}) and those the command line ` +
        `allows; if ${name} is meant to hold the ${api} API's ${role}, pass --provider-env ${name} (or ${PROVIDER_ENV_VARIABLE}=${name})`);
    }
  }
  if (p.address !== undefined) {
    // The token goes where the address says: an address written in the app is used only where the command line allows it.
    const shown = String(p.address).slice(0, 200);
    const key = typeof p.address === 'string' ? addressKey(p.address) : undefined;
    if (!key || !addresses.has(key)) {
      throw new Error(`${where}'s address is ${JSON.stringify(shown)}: converge sends the ${api} API's token only to its address variable ` +
        `(${std.addressEnv}, or the provider's addressEnv) or to an address the command line allows; if it is the ${api} API, ` +
        `pass --provider-address ${key ?? shown} (or ${PROVIDER_ADDRESS_VARIABLE}=${key ?? shown})`);
    }
  }
  // Lowered protection of the token on the way, for an address the plan job chose: its job's variables say so, not the output.
  for (const [field, variable] of [['skipTlsVerify', `the API's skip-verify variable`], ['allowInsecureHttp', 'CONVERGE_ALLOW_INSECURE_HTTP=1']] as const) {
    if (p[field] === true && p.address === undefined) {
      throw new Error(`${where}'s ${field} is refused: it would lower the protection of the ${api} token on the way to the address ` +
        `the job gives (${p.addressEnv}); set ${variable} in the job instead, or give the address in the provider and allow it with --provider-address`);
    }
  }
  for (const field of ['caCertFile', 'clientCertFile', 'clientKeyFile'] as const) {
    const f = p[field];
    if (f === undefined) continue;
    const system = typeof f === 'string' ? systemPathReason(f) : 'it is not a path';
    if (system) throw new Error(`${where}'s ${field} is refused: ${system}`);
  }
}

/** A field that holds a secret: anything below it may be a secret source. */
const holdsSecret = (f: FieldSchema | undefined): boolean => f !== undefined && (f.sensitive === true || f.type === 'secret' || f.mayHoldSecret === true);

/** How a walk refuses: `refuse` a secret source, and tells whether a reference is to a secret. */
interface Placement {
  refuse(p: string, what: string): never;
  secretRef(ref: AttrRef): boolean;
}

/** Refuses a secret source anywhere below a field that is not sensitive (`fields`: the shape there, if known). */
function checkSecretsIn(v: unknown, field: FieldSchema | undefined, p: string, at: Placement): void {
  if (holdsSecret(field)) return;
  if (isSecretRef(v)) at.refuse(p, describeSecretSource(v));
  if (isAttrRef(v)) {
    // An identity is sent in a request's path and printed: never a secret, even one the API answered (a data source's).
    if (field?.identity && (v.secret || at.secretRef(v))) at.refuse(p, `a reference to the secret ${String(v.$ref).slice(0, 100)}.${String(v.attr).slice(0, 100)}`);
    return;
  }
  if (Array.isArray(v)) {
    v.forEach((x, i) => checkSecretsIn(x, field?.type === 'object-list' ? { ...field, type: 'object' } : undefined, `${p}[${i}]`, at));
    return;
  }
  if (v === null || typeof v !== 'object') return;
  const shape: FieldsSchema | undefined = field?.type === 'object' ? field.fields : undefined;
  for (const [k, x] of Object.entries(v)) {
    const sub = field?.type === 'object-map' ? { ...field, type: 'object' as const } : shape?.[k];
    checkSecretsIn(x, sub, `${p}.${k}`, at);
  }
}

/** Whether an attribute of `target` may hold a secret (a sensitive output or field); true when the target is unknown. */
function attrIsSecret(target: DesiredResource | undefined, attr: string): boolean {
  if (!target) return true;
  const top = attr.split('.')[0];
  if (target.dataSource) {
    const h = dataSourceHandler(target.kind);
    return (h.sensitiveOutputs ?? []).includes(top) || h.schema?.outputs?.[top]?.sensitive === true || holdsSecret(h.schema?.fields[top]);
  }
  const h = resourceHandler(target.kind);
  return (h.sensitiveFields ?? []).includes(top) || h.schema?.outputs?.[top]?.sensitive === true || holdsSecret(h.schema?.fields[top]);
}

/** The fields of a kind, from its handler's schema (none for a lookup: its spec holds only an id). */
function fieldsOf(r: DesiredResource): FieldsSchema {
  const h = r.dataSource ? dataSourceHandler(r.kind) : resourceHandler(r.kind);
  return h.schema?.fields ?? {};
}

/**
 * Refuses a secret source in a field the kind's schema does not mark sensitive, and a reference to a
 * secret in an identity field; the refusal names the source, never a value. `find` gives the object a
 * reference names (in `stack`, else this stack).
 */
export function checkSecretPlacement(r: DesiredResource, find: (address: string, stack?: string) => DesiredResource | undefined = () => undefined): void {
  const fields = fieldsOf(r);
  const at: Placement = {
    refuse: (p, what) => {
      throw new Error(`${r.path}: ${p} holds a secret source (${what}), but ${p} is not a sensitive field of ${r.kind}: ` +
        'converge reads secrets only in the fields a kind marks sensitive (this synthesized output was not written by its constructs)');
    },
    secretRef: (ref) => attrIsSecret(find(String(ref.$ref), ref.stack), String(ref.attr)),
  };
  for (const [k, v] of Object.entries(r.spec ?? {})) checkSecretsIn(v, fields[k], k, at);
  walkSecrets(r.spec, (ref) => {
    const { env: name, file } = ref.$secret ?? {};
    if (name !== undefined) {
      const forbidden = forbiddenSecretVariable(String(name));
      if (forbidden) throw new Error(`${r.path}: the secret source env ${String(name).slice(0, 100)} is refused: ${forbidden}`);
    }
    if (file !== undefined) {
      // Checked again when read; here so that nothing is sent for a run that would stop on it. A file
      // that does not exist yet is left to that read.
      try {
        confinedSecretFile(String(file));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${r.path}: the secret source file ${String(file).slice(0, 200)} is refused: ${(e as Error).message}`);
      }
    }
  });
}

function walkSecrets(v: unknown, visit: (ref: { $secret: { env?: unknown; file?: unknown } }) => void): void {
  if (isSecretRef(v)) return visit(v);
  if (Array.isArray(v)) v.forEach((x) => walkSecrets(x, visit));
  else if (v !== null && typeof v === 'object') Object.values(v).forEach((x) => walkSecrets(x, visit));
}

/** Checks every stack of a synthesized output (see above); throws the first problem, naming the construct and field. */
export function checkSynthesizedStacks(stacks: readonly DesiredStack[], env: NodeJS.ProcessEnv = process.env): void {
  const allowed = allowedProviderEnv(env);
  const addresses = allowedProviderAddresses(env);
  const resources = stacks.flatMap((s) => Object.values(s.resources ?? {}));
  const tokenVariables = new Set(resources.map((r) => (r.provider as Partial<ProviderConfig> | undefined)?.tokenEnv).filter((n): n is string => typeof n === 'string'));
  // A provider is checked once: the resources of a stack share their provider objects (readSynthDir), and its check depends on nothing else.
  const providersChecked = new Set<unknown>();
  for (const s of stacks) {
    const find = (address: string, stack?: string) => (stack === undefined ? s : stacks.find((x) => x.stack === stack))?.resources?.[address];
    for (const r of Object.values(s.resources ?? {})) {
      if (!providersChecked.has(r.provider)) {
        checkProviderSettings(r, allowed, tokenVariables, addresses);
        providersChecked.add(r.provider);
      }
      checkSecretPlacement(r, find);
    }
  }
}
