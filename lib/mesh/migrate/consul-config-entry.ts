import { enumOf } from '../../core/migrate/mapping-util';
import { MapLiteral, TerraformMapping } from '../../core/migrate/terraform-mapping';
import { FieldsSchema, wireName } from '../../core/schema';
import { ConfigEntrySchema } from '../config-entry/config-entry.schema';
import { PROXY_DEFAULTS } from '../config-entry/proxy-defaults.schema';
import { SERVICE_DEFAULTS } from '../config-entry/service-defaults.schema';
import { SERVICE_INTENTIONS } from '../config-entry/service-intentions.schema';
import { SERVICE_RESOLVER } from '../config-entry/service-resolver.schema';
import { SERVICE_ROUTER } from '../config-entry/service-router.schema';
import { SERVICE_SPLITTER } from '../config-entry/service-splitter.schema';

/** The entry kinds converge has a construct for, by the `kind` the provider writes. */
const ENTRY_KINDS: ConfigEntrySchema[] = [SERVICE_DEFAULTS, PROXY_DEFAULTS, SERVICE_RESOLVER, SERVICE_SPLITTER, SERVICE_ROUTER, SERVICE_INTENTIONS];

/** Fields that take one of converge's enums, by dotted prop path. */
const ENUM_FIELDS: Record<string, string> = {
  'protocol': 'mesh.MeshProtocol',
  'meshGateway.mode': 'mesh.MeshGatewayMode',
  'sources.action': 'mesh.IntentionAction',
  'sources.permissions.action': 'mesh.IntentionAction',
};

/** What the server fills in on an intention's source (its rank and type): not the team's to write. */
const SERVER_FILLED_SOURCE_FIELDS = ['Precedence', 'Type', 'LegacyID', 'LegacyMeta', 'LegacyCreateTime', 'LegacyUpdateTime'];

class Unexpressible extends Error {}

/** The entry's body (`config_json`, keys as the API writes them) as the construct's props, field by field of its schema. */
function propsOf(body: Record<string, unknown>, fields: FieldsSchema, schema: ConfigEntrySchema, at: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const byWire = new Map(Object.entries(fields).map(([k, f]) => [wireName(schema, k, f), k]));
  for (const [wire, value] of Object.entries(body)) {
    if (value === null || value === undefined) continue;
    const key = byWire.get(wire) ?? (fields[wire] ? wire : undefined);
    if (!key) throw new Unexpressible(`${at}${wire} has no prop`);
    const f = fields[key];
    const path = `${at}${key}`;
    const enumName = ENUM_FIELDS[path];
    if (enumName && typeof value === 'string') {
      if (value !== '') out[key] = enumOf(enumName, value);
    } else if (f.type === 'object' && f.fields) {
      out[key] = propsOf(value as Record<string, unknown>, f.fields, schema, `${path}.`);
    } else if (f.type === 'object-list' && f.fields) {
      out[key] = (value as Record<string, unknown>[]).map((x) => propsOf(x, f.fields!, schema, `${path}.`));
    } else if (f.type === 'object-map' && f.fields) {
      out[key] = new MapLiteral(Object.fromEntries(Object.entries(value as Record<string, Record<string, unknown>>)
        .map(([k, x]) => [k, propsOf(x, f.fields!, schema, `${path}.`)])));
    } else if (f.type === 'string-map' || f.type === 'json') {
      out[key] = new MapLiteral(value as Record<string, unknown>);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** `consul_config_entry` -> the construct of its kind (service-defaults, proxy-defaults, service-resolver, -splitter, -router, service-intentions). */
export const CONSUL_CONFIG_ENTRY: TerraformMapping = {
  type: 'consul_config_entry',
  map(r) {
    const v = r.values;
    const schema = ENTRY_KINDS.find((s) => s.entryKind === v.kind);
    if (!schema) return { skip: `config entry kind "${v.kind}" has no converge construct` };
    if (v.partition && v.partition !== 'default') return { skip: `admin partition "${v.partition}" (enterprise) is not expressed` };
    let body: Record<string, unknown>;
    try {
      body = typeof v.config_json === 'string' && v.config_json ? JSON.parse(v.config_json) : {};
      if (schema === SERVICE_INTENTIONS && Array.isArray(body.Sources)) {
        body.Sources = (body.Sources as Record<string, unknown>[]).map((src) => Object.fromEntries(Object.entries(src).filter(([k]) => !SERVER_FILLED_SOURCE_FIELDS.includes(k))));
      }
    } catch {
      return { skip: 'config_json is not JSON' };
    }
    const namespace = typeof v.namespace === 'string' && v.namespace && v.namespace !== 'default' ? v.namespace : undefined;
    let props: Record<string, unknown>;
    try {
      props = propsOf({ Name: v.name, ...body }, schema.fields, schema, '');
    } catch (e) {
      if (e instanceof Unexpressible) return { skip: `config_json: ${e.message}` };
      throw e;
    }
    // proxy-defaults has one entry, named "global": its construct takes no name.
    if (schema === PROXY_DEFAULTS) delete props.name;
    if (namespace) props.namespace = namespace;
    return {
      kind: schema.kind,
      className: `mesh.${schema.kind.split('.')[1]}`,
      importId: `${namespace ? `${namespace}/` : ''}${schema.entryKind}/${v.name}`,
      props,
    };
  },
};
