import { randomUUID } from 'crypto';
import { EmuResponse, json } from '../../core/emulator-kit/types';
import { ownEntry } from '../emulator/engine';
import { boolParam, stringParam } from '../emulator/field-params';
import { envelope, errors, noContent, notFound, objectBody, RequestError } from '../emulator/responses';

interface PushMfaMethod {
  id: string;
  name: string;
  usernameFormat: string;
  secretKey: string;
  integrationKey: string;
  apiHostname: string;
  pushInfo: string;
  usePasscode: boolean;
}

/** A login enforcement naming MFA methods (seeded through the admin interface). */
interface LoginEnforcement {
  name: string;
  methodIds: string[];
}

export interface PushMfaState {
  methods: Record<string, PushMfaMethod>;
  enforcements: Record<string, LoginEnforcement>;
}

/** The path of the push-MFA method below `/v1/`. */
export const PUSH_MFA_PATH = 'identity/mfa/method/pushmfa';

/**
 * Push-MFA methods under `/v1/identity/mfa/method/pushmfa` (not a mount: part of the
 * service's identity store), and the login enforcements that use them.
 *
 * As the real service does, where the spec is silent:
 * - Every write (create, or update by `<id>` in the path or `method_id` in the body) needs
 *   `secret_key`, `integration_key` and `api_hostname` (400 "<field> is empty") and answers 200
 *   `{"method_id": "<uuid>"}`; an update of an unknown id: 400 "invalid method ID".
 * - `method_name` must be unique (400 `method name "<name>" already in use`); an update
 *   without it keeps the current name.
 * - Read answers the spec's fields plus `name`, `namespace_id` (`root`) and `mount_accessor`
 *   (empty); `push_info` is read as `pushinfo`. Absent: 404. Delete of an absent id: 204;
 *   of a method a login enforcement names: 400.
 * - LIST answers `keys` (UUIDs) and `key_info` (type and name per id); none: 404.
 */
export class PushMfaMethods {
  private state: PushMfaState = { methods: {}, enforcements: {} };

  /** `rest`: the path below `identity/mfa/method/pushmfa` without slashes at the ends. */
  public handle(method: string, rest: string, body: unknown): EmuResponse {
    if (rest.includes('/')) return errors(404, 'unsupported path');
    if (rest === '') {
      if (method === 'LIST') return this.list();
      if (method === 'POST') return this.write(undefined, objectBody(body));
      return errors(405, 'unsupported operation');
    }
    if (method === 'GET') return this.read(rest);
    if (method === 'POST') return this.write(rest, objectBody(body));
    if (method === 'DELETE') return this.remove(rest);
    return errors(405, 'unsupported operation');
  }

  /** `/__admin/mfa/enforcements[/<name>]`: GET lists, POST `{name, mfa_method_ids}` seeds, DELETE removes. */
  public admin(method: string, name: string | undefined, body: unknown): EmuResponse {
    if (name === undefined) {
      if (method === 'GET') {
        return json(200, { enforcements: Object.values(this.state.enforcements).map((e) => ({ name: e.name, mfa_method_ids: e.methodIds })) });
      }
      if (method !== 'POST' && method !== 'PUT') return errors(405, 'unsupported operation');
      const b = objectBody(body);
      const n = stringParam(b, 'name');
      const ids = Array.isArray(b.mfa_method_ids) ? b.mfa_method_ids.map(String) : [];
      if (!n) return errors(400, 'name is required');
      if (!ids.length) return errors(400, 'mfa_method_ids must list at least one method id');
      const unknown = ids.find((id) => !this.method(id));
      if (unknown) return errors(400, `MFA method "${unknown}" not found`);
      this.state.enforcements[n] = { name: n, methodIds: ids };
      return noContent();
    }
    if (method !== 'DELETE') return errors(405, 'unsupported operation');
    delete this.state.enforcements[name];
    return noContent();
  }

  public snapshot(): PushMfaState {
    return this.state;
  }

  public restore(data: unknown): void {
    const d = data as Partial<PushMfaState> | undefined;
    this.state = { methods: d?.methods ?? {}, enforcements: d?.enforcements ?? {} };
  }

  private method(id: string): PushMfaMethod | undefined {
    return ownEntry(this.state.methods, id);
  }

  private write(pathId: string | undefined, b: Record<string, unknown>): EmuResponse {
    const id = pathId ?? stringParam(b, 'method_id');
    const prev = id ? this.method(id) : undefined;
    if (id && !prev) throw new RequestError(400, 'invalid method ID');
    const next: PushMfaMethod = {
      id: prev?.id ?? randomUUID(),
      name: stringParam(b, 'method_name', prev?.name ?? ''),
      usernameFormat: stringParam(b, 'username_format'),
      secretKey: stringParam(b, 'secret_key'),
      integrationKey: stringParam(b, 'integration_key'),
      apiHostname: stringParam(b, 'api_hostname'),
      pushInfo: stringParam(b, 'push_info'),
      usePasscode: boolParam(b, 'use_passcode', false),
    };
    for (const [field, v] of [['secret_key', next.secretKey], ['integration_key', next.integrationKey], ['api_hostname', next.apiHostname]]) {
      if (!v) throw new RequestError(400, `${field} is empty`);
    }
    if (next.name && Object.values(this.state.methods).some((m) => m.name === next.name && m.id !== next.id)) {
      throw new RequestError(400, `method name "${next.name}" already in use`);
    }
    this.state.methods[next.id] = next;
    return envelope({ method_id: next.id });
  }

  private read(id: string): EmuResponse {
    const m = this.method(id);
    if (!m) return notFound();
    return envelope({
      api_hostname: m.apiHostname, id: m.id, integration_key: m.integrationKey, mount_accessor: '', name: m.name,
      namespace_id: 'root', pushinfo: m.pushInfo, secret_key: m.secretKey, type: 'pushmfa',
      use_passcode: m.usePasscode, username_format: m.usernameFormat,
    });
  }

  private remove(id: string): EmuResponse {
    if (!this.method(id)) return noContent();
    const users = Object.values(this.state.enforcements).filter((e) => e.methodIds.includes(id)).map((e) => e.name).sort();
    if (users.length) {
      throw new RequestError(400, `failed to delete MFA method: it is used by login enforcement(s) ${users.map((u) => `"${u}"`).join(', ')}`);
    }
    delete this.state.methods[id];
    return noContent();
  }

  private list(): EmuResponse {
    const ms = Object.values(this.state.methods);
    if (!ms.length) return notFound();
    const keyInfo: Record<string, unknown> = {};
    for (const m of ms) keyInfo[m.id] = { type: 'pushmfa', name: m.name, namespace_id: 'root' };
    return envelope({ keys: ms.map((m) => m.id), key_info: keyInfo });
  }
}
