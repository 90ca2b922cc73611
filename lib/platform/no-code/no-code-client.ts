import { seg } from '../client/path';
import { Document, documentToPlain, PlainResource, ResourceIdentifier, toPlain } from '../client/jsonapi';
import { PlatformTransport } from '../client/transport';

/** One set of allowed values of a module variable. */
export interface VariableOptionSet {
  /** `ncvaropt-…` of an existing set to replace it; omitted: a new set is created. */
  readonly id?: string;
  readonly variableName: string;
  readonly variableType: string;
  readonly options: unknown[];
}

export interface NoCodeModuleAttributes {
  /** @default the latest module version (on enable) */
  readonly versionPin?: string;
  /** @default false (on enable) */
  readonly enabled?: boolean;
  /** `mod-…` of a private-registry module (required on enable). */
  readonly registryModuleId?: string;
  /**
   * The module's option sets from now on (sets with an id replace that set; sets without one are
   * created; sets not listed are removed). Undefined leaves them as they are.
   */
  readonly variableOptions?: VariableOptionSet[];
}

export interface NoCodeModule extends PlainResource {
  readonly enabled: boolean;
  readonly versionPin: string;
  readonly organization: ResourceIdentifier;
  readonly registryModule: ResourceIdentifier;
  /** Identifiers, or the option sets themselves when read with `includeOptions`. */
  readonly variableOptions: PlainResource[];
}

/** A variable of a no-code workspace create or upgrade. */
export interface NoCodeVariable {
  readonly key: string;
  /** @default '' */
  readonly value?: string;
  readonly description?: string;
  readonly category: 'engine' | 'env';
  /** @default false */
  readonly hcl?: boolean;
  /** @default false */
  readonly sensitive?: boolean;
}

export interface NoCodeWorkspaceCreate {
  readonly name: string;
  /** @default '' */
  readonly description?: string;
  /** @default false */
  readonly autoApply?: boolean;
  /** `prj-…` to create the workspace in. */
  readonly projectId: string;
  readonly vars?: NoCodeVariable[];
}

/** A variable of a workspace as read back. */
export interface WorkspaceVar extends PlainResource {
  readonly key: string;
  /** null for a sensitive variable. */
  readonly value: string | null;
  readonly description: string | null;
  readonly category: 'engine' | 'env';
  readonly hcl: boolean;
  readonly sensitive: boolean;
}

/** A workspace document (camelCase attributes), as created from a no-code module or read. */
export interface Workspace extends PlainResource {
  readonly name: string;
  readonly description: string;
  readonly autoApply: boolean;
  readonly source: string;
  readonly sourceModuleId: string | null;
  readonly noCodeUpgradeAvailable: boolean;
  readonly project: ResourceIdentifier;
  readonly noCodeModuleVersion?: ResourceIdentifier;
}

export interface RegistryModule extends PlainResource {
  readonly name: string;
  readonly provider: string;
  readonly versionStatuses: { version: string; status: string }[];
  readonly noCodeModules: ResourceIdentifier[];
}

export type UpgradeStatus = 'pending' | 'fetching' | 'planning' | 'planned' | 'cost_estimated' | 'planned_and_finished' | 'errored' | 'applied' | string;

export interface WorkspaceUpgrade extends PlainResource {
  /** The run id `run-…`. */
  readonly id: string;
  readonly status: UpgradeStatus;
  readonly planUrl: string;
  readonly workspace: ResourceIdentifier;
}

/** Statuses in which the upgrade plan has finished and may be confirmed. */
export const UPGRADE_CONFIRMABLE: readonly string[] = ['planned', 'cost_estimated', 'planned_and_finished'];
/** Statuses after which the plan will not finish. */
export const UPGRADE_FAILED: readonly string[] = ['errored', 'canceled', 'discarded', 'force_canceled'];

const modPath = (id: string) => `/no-code-modules/${seg(id)}`;

function moduleBody(a: NoCodeModuleAttributes): unknown {
  const attributes: Record<string, unknown> = {};
  if (a.versionPin !== undefined) attributes['version-pin'] = a.versionPin;
  if (a.enabled !== undefined) attributes.enabled = a.enabled;
  const relationships: Record<string, unknown> = {};
  if (a.registryModuleId !== undefined) relationships['registry-module'] = { data: { id: a.registryModuleId, type: 'registry-module' } };
  if (a.variableOptions !== undefined) {
    relationships['variable-options'] = {
      data: a.variableOptions.map((o) => ({
        ...(o.id ? { id: o.id } : {}), type: 'variable-options',
        attributes: { 'variable-name': o.variableName, 'variable-type': o.variableType, options: o.options },
      })),
    };
  }
  return { data: { type: 'no-code-modules', attributes, relationships } };
}

function varsData(vars: readonly NoCodeVariable[] = []): unknown {
  return {
    data: vars.map((v) => ({
      type: 'vars',
      attributes: { key: v.key, value: v.value ?? '', description: v.description ?? '', category: v.category, hcl: v.hcl ?? false, sensitive: v.sensitive ?? false },
    })),
  };
}

/**
 * No-code modules, their workspaces and workspace upgrades. The platform refuses organization
 * tokens here: use a user or team token.
 */
export class NoCodeModulesClient {
  constructor(private readonly client: PlatformTransport) {}

  /** Enables no-code provisioning for a registry module (answers 200). */
  public async enable(organization: string, attributes: NoCodeModuleAttributes & { registryModuleId: string }): Promise<NoCodeModule> {
    const res = await this.client.request<Document>('POST', `/organizations/${seg(organization)}/no-code-modules`, { body: moduleBody(attributes) });
    return toPlain(res.body.data as any) as NoCodeModule;
  }

  /** undefined when absent; `includeOptions` resolves the variable option sets (`include=variable_options`). */
  public show(id: string, includeOptions = false): Promise<NoCodeModule | undefined> {
    return this.client.getOne(modPath(id), includeOptions ? { include: 'variable_options' } : undefined) as Promise<NoCodeModule | undefined>;
  }

  public async update(id: string, attributes: NoCodeModuleAttributes): Promise<NoCodeModule> {
    const res = await this.client.request<Document>('PATCH', modPath(id), { body: moduleBody(attributes) });
    return toPlain(res.body.data as any) as NoCodeModule;
  }

  /** Creates a workspace from the module (answers 200). */
  public async createWorkspace(id: string, ws: NoCodeWorkspaceCreate): Promise<Workspace> {
    const body = {
      data: {
        type: 'workspaces',
        attributes: { name: ws.name, description: ws.description ?? '', auto_apply: ws.autoApply ?? false },
        relationships: { project: { data: { id: ws.projectId, type: 'project' } }, vars: varsData(ws.vars) },
      },
    };
    const res = await this.client.request<Document>('POST', `${modPath(id)}/workspaces`, { body });
    return toPlain(res.body.data as any) as Workspace;
  }

  /** Starts an upgrade plan of a workspace to the module's pinned version, with variables. */
  public async initiateUpgrade(id: string, workspaceId: string, vars: readonly NoCodeVariable[] = []): Promise<WorkspaceUpgrade> {
    const res = await this.client.request<Document>('POST', `${modPath(id)}/workspaces/${seg(workspaceId)}/upgrade`,
      { body: { data: { type: 'workspaces', relationships: { vars: varsData(vars) } } } });
    return toPlain(res.body.data as any) as WorkspaceUpgrade;
  }

  /** The upgrade run's current status; undefined when absent. */
  public upgradeStatus(id: string, workspaceId: string, runId: string): Promise<WorkspaceUpgrade | undefined> {
    return this.client.getOne(`${modPath(id)}/workspaces/${seg(workspaceId)}/upgrade/${seg(runId)}`) as Promise<WorkspaceUpgrade | undefined>;
  }

  /** Confirms a planned upgrade; answers the platform's plain-text completion message. */
  public async confirmUpgrade(id: string, workspaceId: string, runId: string): Promise<string> {
    const res = await this.client.request<unknown>('POST', `${modPath(id)}/workspaces/${seg(workspaceId)}/upgrade/${seg(runId)}`);
    return typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? '');
  }

  /**
   * The whole sequence: initiate, poll every `pollMs` until the plan has finished, confirm. Throws
   * when the plan fails or does not finish within `timeoutMs`. Polls and the deadline go by the
   * HTTP client's clock (the system clock unless it was given one).
   */
  public async upgrade(id: string, workspaceId: string, vars: readonly NoCodeVariable[] = [],
    options: { timeoutMs?: number; pollMs?: number } = {}): Promise<{ run: WorkspaceUpgrade; message: string }> {
    const timeout = options.timeoutMs ?? 10 * 60_000;
    const pollMs = options.pollMs ?? 1000;
    const clock = this.client.http.clock;
    const started = await this.initiateUpgrade(id, workspaceId, vars);
    const deadline = clock.now() + timeout;
    let run: WorkspaceUpgrade = started;
    while (!UPGRADE_CONFIRMABLE.includes(run.status)) {
      if (UPGRADE_FAILED.includes(run.status)) {
        throw new Error(`the upgrade plan of workspace ${workspaceId} ended ${run.status} (run ${run.id}: ${run.planUrl})`);
      }
      if (clock.now() >= deadline) {
        throw new Error(`the upgrade plan of workspace ${workspaceId} did not finish within ${Math.round(timeout / 1000)}s (run ${run.id} is ${run.status}: ${run.planUrl})`);
      }
      await clock.sleep(pollMs);
      const next = await this.upgradeStatus(id, workspaceId, started.id);
      if (!next) throw new Error(`the upgrade run ${started.id} of workspace ${workspaceId} disappeared`);
      run = next;
    }
    return { run, message: await this.confirmUpgrade(id, workspaceId, started.id) };
  }

  /**
   * A private-registry module (the platform's registry-module show); its `noCodeModules` relationship
   * names the no-code settings of the module. undefined when absent.
   */
  public registryModule(organization: string, name: string, provider: string): Promise<RegistryModule | undefined> {
    const o = seg(organization);
    return this.client.getOne(`/organizations/${o}/registry-modules/private/${o}/${seg(name)}/${seg(provider)}`) as Promise<RegistryModule | undefined>;
  }

  /** A workspace (the platform's `GET /workspaces/<id>`); undefined when absent. */
  public showWorkspace(workspaceId: string): Promise<Workspace | undefined> {
    return this.client.getOne(`/workspaces/${seg(workspaceId)}`) as Promise<Workspace | undefined>;
  }

  /** A workspace's variables (`GET /workspaces/<id>/vars`): a sensitive one's value reads as null; undefined when the workspace is gone. */
  public async workspaceVars(workspaceId: string): Promise<WorkspaceVar[] | undefined> {
    const res = await this.client.request('GET', `/workspaces/${seg(workspaceId)}/vars`, { accept: [404] });
    if (res.status === 404) return undefined;
    return documentToPlain(res.body) as unknown as WorkspaceVar[];
  }

  /** Updates a workspace's name, description or auto-apply (the platform's `PATCH /workspaces/<id>`). */
  public async updateWorkspace(workspaceId: string, attributes: { name?: string; description?: string; autoApply?: boolean }): Promise<Workspace> {
    const a: Record<string, unknown> = {};
    if (attributes.name !== undefined) a.name = attributes.name;
    if (attributes.description !== undefined) a.description = attributes.description;
    if (attributes.autoApply !== undefined) a['auto-apply'] = attributes.autoApply;
    const res = await this.client.request<Document>('PATCH', `/workspaces/${seg(workspaceId)}`, { body: { data: { type: 'workspaces', attributes: a } } });
    return toPlain(res.body.data as any) as Workspace;
  }

  /** A workspace by organization and name (the platform's `GET /organizations/<org>/workspaces/<name>`). */
  public showWorkspaceByName(organization: string, name: string): Promise<Workspace | undefined> {
    return this.client.getOne(`/organizations/${seg(organization)}/workspaces/${seg(name)}`) as Promise<Workspace | undefined>;
  }

  /** Deletes a workspace (the platform's `DELETE /workspaces/<id>`); false when already absent. */
  public async deleteWorkspace(workspaceId: string): Promise<boolean> {
    return (await this.client.request('DELETE', `/workspaces/${seg(workspaceId)}`, { accept: [404] })).status !== 404;
  }
}
