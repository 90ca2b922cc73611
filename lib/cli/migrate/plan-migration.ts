import { resourceHandler } from '../../core/engine/registry';
import { ConstructRef, EnumMember, ExistingLookup, MigrationContext, SecretFromEnv, TerraformMapping, TfResource } from '../../core/migrate/terraform-mapping';
import { allTokenVariables, convergeOwnVariable } from '../../core/reserved-variables';
import { MIGRATED_PROVIDERS, terraformMappings } from './mappings';

/** One construct the generated code declares, for one resource of the state. */
export interface GeneratedConstruct {
  readonly tfAddress: string;
  /** The construct's id, which is its converge address. */
  readonly constructId: string;
  /** Its variable in the code. */
  readonly varName: string;
  readonly className: string;
  readonly kind: string;
  readonly props: Record<string, unknown>;
  readonly importId: string;
  readonly secrets: readonly SecretFromEnv[];
}

/** What `converge migrate terraform` makes of a state. */
export interface Migration {
  readonly constructs: readonly GeneratedConstruct[];
  readonly lookups: readonly ExistingLookup[];
  /** Every resource not taken, with the reason. */
  readonly skipped: readonly { address: string; reason: string }[];
  /** Constructs whose variable the code refers to (the others are declared without one). */
  readonly referenced: ReadonlySet<string>;
}

/** `tfe_oauth_client.github["x"]` -> `github-x` (module path kept as a prefix). */
function constructIdOf(r: TfResource, clash: boolean): string {
  const mod = r.module ? `${r.module.replace(/module\./g, '').replace(/\[.*?\]/g, '').replace(/\./g, '-')}-` : '';
  const key = r.indexKey === undefined ? '' : `-${String(r.indexKey).replace(/[^A-Za-z0-9_-]+/g, '-')}`;
  return `${mod}${clash ? `${r.type}-` : ''}${r.name}${key}`;
}

const RESERVED_WORDS = new Set(['this', 'new', 'class', 'function', 'default', 'import', 'export', 'const', 'let', 'var', 'in', 'for',
  'if', 'else', 'return', 'delete', 'switch', 'case', 'do', 'while', 'with', 'yield', 'try', 'catch', 'finally', 'throw', 'typeof',
  'instanceof', 'void', 'super', 'extends', 'enum', 'null', 'true', 'false', 'app', 'stack', 'self', 'id', 'scope', 'lambda', 'pass',
  'def', 'from', 'as', 'is', 'not', 'and', 'or', 'global', 'None', 'True', 'False', 'SecretValue', 'platform', 'secrets', 'mesh']);

/** A variable name for a construct id: `app-db` -> `appDb`, unique in the file. */
function variableOf(constructId: string, used: Set<string>): string {
  let base = constructId.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''));
  if (!/^[A-Za-z_]/.test(base)) base = `r${base}`;
  if (RESERVED_WORDS.has(base)) base = `${base}Construct`;
  let name = base;
  for (let i = 2; used.has(name); i++) name = `${base}${i}`;
  used.add(name);
  return name;
}

/** The short name of a resource's provider: `registry.terraform.io/hashicorp/tfe` -> `tfe`. */
function providerName(r: TfResource): string {
  return r.provider.split('/').pop() ?? r.provider;
}

/**
 * The props without those that say what the kind's schema renders anyway (its default): the code
 * reads as a team would write it, and plans the same.
 */
function withoutDefaults(kind: string, props: Record<string, unknown>): Record<string, unknown> {
  let fields;
  try {
    fields = resourceHandler(kind).schema?.fields;
  } catch {
    return props; // kinds not registered (a test of the mapping alone)
  }
  if (!fields) return props;
  return Object.fromEntries(Object.entries(props).filter(([k, v]) => {
    const f = fields[k];
    if (!f || f.required || f.identity || f.default === undefined || typeof f.default === 'function') return true;
    const plain = v instanceof EnumMember ? v.value : v;
    return typeof plain === 'object' && plain !== null ? true : JSON.stringify(plain) !== JSON.stringify(f.default);
  }));
}

/** Maps every resource of the state through the domains' mappings. */
export function planMigration(resources: readonly TfResource[]): Migration {
  const mappings = terraformMappings();
  const skipped: { address: string; reason: string }[] = [];
  const candidates: { r: TfResource; m: TerraformMapping }[] = [];
  for (const r of resources) {
    if (r.mode === 'data') { skipped.push({ address: r.address, reason: 'a data source: Terraform only reads it, there is nothing to take' }); continue; }
    const p = providerName(r);
    if (!MIGRATED_PROVIDERS.includes(p)) { skipped.push({ address: r.address, reason: `provider "${p}" is not one converge replaces (tfe, vault, consul)` }); continue; }
    const m = mappings.get(r.type);
    if (!m) { skipped.push({ address: r.address, reason: `no converge kind for ${r.type}` }); continue; }
    candidates.push({ r, m });
  }
  candidates.sort((a, b) => (a.m.order ?? 1) - (b.m.order ?? 1));
  const names = new Map<string, number>();
  for (const { r } of candidates) names.set(constructIdOf(r, false), (names.get(constructIdOf(r, false)) ?? 0) + 1);

  const takenByType = new Map<string, TfResource[]>();
  const byObject = new Map<string, GeneratedConstruct>();
  const lookups = new Map<string, ExistingLookup>();
  const referenced = new Set<string>();
  const usedVars = new Set<string>();
  const usedEnv = new Set<string>();
  const constructs: GeneratedConstruct[] = [];
  for (const { r, m } of candidates) {
    const secrets: SecretFromEnv[] = [];
    const ctx: MigrationContext = {
      secret(resource, attributePath, value) {
        const leaf = attributePath.split('.').pop()!.replace(/\[\d+\]/g, '');
        let base = `${resource.type}_${constructIdOf(resource, false)}_${leaf}`.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '');
        if (!/^[A-Z_]/.test(base)) base = `TF_${base}`;
        if (convergeOwnVariable(base) || allTokenVariables().has(base)) base = `MIGRATED_${base}`;
        let name = base;
        for (let i = 2; usedEnv.has(name); i++) name = `${base}_${i}`;
        usedEnv.add(name);
        const s = new SecretFromEnv(name, attributePath, typeof value === 'string' ? value : JSON.stringify(value));
        secrets.push(s);
        return s;
      },
      find(type, where) {
        return (takenByType.get(type) ?? []).find((x) => Object.entries(where).every(([k, v]) => x.values[k] === v));
      },
      inState(type, where) {
        return resources.find((x) => x.mode === 'managed' && x.type === type && Object.entries(where).every(([k, v]) => x.values[k] === v));
      },
      organization(name) {
        const org = ctx.find('tfe_organization', { name });
        if (org) return new ConstructRef(org.address);
        const key = `org-${name}`;
        if (!lookups.has(key)) lookups.set(key, new ExistingLookup('platform.Organization', 'fromName', key, [name]));
        return lookups.get(key)!;
      },
    };
    let mapped;
    try {
      mapped = m.map(r, ctx);
    } catch (e) {
      mapped = { skip: `its attributes are not as the provider writes them (${(e as Error).message})` };
    }
    if ('skip' in mapped) { skipped.push({ address: r.address, reason: mapped.skip }); continue; }
    const constructId = constructIdOf(r, (names.get(constructIdOf(r, false)) ?? 0) > 1);
    const g: GeneratedConstruct = { tfAddress: r.address, constructId, varName: variableOf(constructId, usedVars), className: mapped.className,
      kind: mapped.kind, props: withoutDefaults(mapped.kind, mapped.props), importId: mapped.importId, secrets };
    // One object, one construct: two resources of the state managing the same object are one too many.
    const twin = byObject.get(`${g.kind} ${g.importId}`);
    if (twin) { skipped.push({ address: r.address, reason: `the same object as ${twin.tfAddress} (${g.importId})` }); continue; }
    byObject.set(`${g.kind} ${g.importId}`, g);
    if (!takenByType.has(r.type)) takenByType.set(r.type, []);
    takenByType.get(r.type)!.push(r);
    constructs.push(g);
  }
  const walk = (v: unknown): void => {
    if (v instanceof ConstructRef) referenced.add(v.address);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object' && !(v instanceof SecretFromEnv)) Object.values(v.constructor.name === 'MapLiteral' ? (v as { entries: object }).entries : v).forEach(walk);
  };
  constructs.forEach((c) => walk(c.props));
  return { constructs, lookups: [...lookups.values()], skipped, referenced };
}
