import { block, isSet, seconds, setOnly } from '../../core/migrate/mapping-util';
import { MapLiteral, TerraformMapping } from '../../core/migrate/terraform-mapping';
import { KV_SECRET } from '../kv/kv-secret.schema';

/** The secret's data: `data_json` (a JSON string), else the `data` map the provider also keeps. */
function dataOf(v: Record<string, unknown>): { data: Record<string, unknown>; attr: string } | undefined {
  if (typeof v.data_json === 'string' && v.data_json) {
    try {
      const parsed = JSON.parse(v.data_json);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return { data: parsed, attr: 'data_json' };
    } catch {
      return undefined;
    }
  }
  if (v.data && typeof v.data === 'object') return { data: v.data as Record<string, unknown>, attr: 'data' };
  return undefined;
}

/** `vault_kv_secret_v2` -> `secrets.KvSecret`: every value of its data is read from the environment, never written. */
export const VAULT_KV_SECRET_V2: TerraformMapping = {
  type: 'vault_kv_secret_v2',
  map(r, ctx) {
    const v = r.values;
    const found = dataOf(v);
    if (!found) return { skip: 'data_json is not a JSON object' };
    const nonString = Object.entries(found.data).find(([, x]) => typeof x !== 'string');
    // An environment variable holds a string: a number or an object under a key would come back as another value.
    if (nonString) return { skip: `data key "${nonString[0]}" holds a ${typeof nonString[1]}, not a string (an environment variable holds a string)` };
    const data = Object.fromEntries(Object.entries(found.data).map(([k, x]) => [k, ctx.secret(r, `${found.attr}.${k}`, x)]));
    const meta = block(v, 'custom_metadata');
    return {
      kind: KV_SECRET.kind,
      className: 'secrets.KvSecret',
      importId: `${v.mount}/${v.name}`,
      props: setOnly({
        mount: v.mount,
        path: v.name,
        data: new MapLiteral(data),
        customMetadata: meta && isSet(meta.data) ? new MapLiteral(meta.data as Record<string, unknown>) : undefined,
        maxVersions: meta && typeof meta.max_versions === 'number' && meta.max_versions > 0 ? meta.max_versions : undefined,
        casRequired: meta?.cas_required === true ? true : undefined,
        deleteVersionAfter: meta ? seconds(meta.delete_version_after) : undefined,
      }),
    };
  },
};
