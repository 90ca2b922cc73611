import { EmuResponse } from '../../core/emulator-kit/types';
import { Engine, EngineRequest, ownEntry } from '../emulator/engine';
import { errors, keyList, noContent, notFound, objectBody, RequestError } from '../emulator/responses';

/** The state of an engine with roles: the roles by name, beside what the engine keeps of its own. */
export interface RoleEngineState<Role> {
  roles: Record<string, Role>;
}

/**
 * An engine whose roles live at `<section>/<name>` and hand out credentials at `creds/<name>` (the
 * platform-token and mesh-token engines): routes those paths (list, read, write, delete of a role; a
 * role deleted when absent succeeds), finds roles, counts credential reads as reads that change state,
 * and keeps its state for snapshots. Other paths go to `handleOther` (an access configuration).
 */
export abstract class RoleEngine<Role, State extends RoleEngineState<Role>> implements Engine {
  public abstract readonly type: string;
  protected abstract state: State;

  /**
   * @param section the path segment of roles (`role`, `roles`)
   * @param credsMethods the methods creds answer (`GET`, and for some engines `POST`)
   */
  protected constructor(protected readonly mount: string, private readonly section: string, private readonly credsMethods: readonly string[]) {}

  public async handle(r: EngineRequest): Promise<EmuResponse> {
    const m = /^([^/]+)(?:\/(.*))?$/.exec(r.subPath);
    const [, first = '', raw = ''] = m ?? [];
    if (first !== this.section && first !== 'creds') return this.handleOther(r);
    const name = raw.replace(/\/$/, '');
    if (first === this.section && name === '') return r.method === 'LIST' ? keyList(Object.keys(this.state.roles).sort()) : errors(405, 'unsupported operation');
    if (name === '' || name.includes('/')) return errors(404, 'unsupported path');
    if (first === 'creds') {
      if (!this.credsMethods.includes(r.method)) return errors(405, 'unsupported operation');
      const role = this.role(name);
      if (!role) throw new RequestError(400, `role "${name}" not found`);
      return this.creds(name, role);
    }
    if (r.method === 'GET') {
      const role = this.role(name);
      return role ? this.readRole(name, role) : notFound();
    }
    if (r.method === 'POST') return this.writeRole(name, objectBody(r.body), this.role(name));
    if (r.method === 'DELETE') { delete this.state.roles[name]; return noContent(); }
    return errors(405, 'unsupported operation');
  }

  /** Credentials make a token or open a lease: a read that changes state. */
  public mutatesOnRead(subPath: string): boolean {
    return subPath.startsWith('creds/');
  }

  public snapshot(): unknown {
    return this.state;
  }

  public abstract restore(data: unknown): void;

  /** A role by name (own properties only: `constructor` is no role). */
  protected role(name: string): Role | undefined {
    return ownEntry(this.state.roles, name);
  }

  /** Paths other than roles and creds. */
  protected abstract handleOther(r: EngineRequest): EmuResponse | Promise<EmuResponse>;
  protected abstract readRole(name: string, role: Role): EmuResponse;
  protected abstract writeRole(name: string, body: Record<string, unknown>, prev: Role | undefined): EmuResponse | Promise<EmuResponse>;
  protected abstract creds(name: string, role: Role): Promise<EmuResponse>;
}
