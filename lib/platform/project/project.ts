import { Construct } from 'constructs';
import { ExistingObject } from '../../core/constructs/existing-object';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { KindSchema } from '../../core/schema';
import { IOrganization } from '../organization/organization';
import { PlatformProvider } from '../provider';
import { refKey, useReference } from '../shared/references';
import { PROJECT } from './project.schema';

/** A project: one this app manages, or one looked up with `Project.fromName`. */
export interface IProject {
  /** The project id (`prj-…`), known once read or applied. */
  readonly projectId: string;
  /** The project name. */
  readonly projectName: string;
}

/** Props of a project. */
export interface ProjectProps extends ResourceProps {
  /** The organization (an `Organization`, or `Organization.fromName`). A change replaces the project. */
  readonly organization: IOrganization;
  /** Project name: 3 to 40 letters, numbers, inner spaces, `-` and `_`; unique in the organization. Renamed in place. */
  readonly name: string;
  /**
   * Description.
   * @default ''
   */
  readonly description?: string;
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * A project of an organization: a group of workspaces (and what is granted on them). The platform
 * refuses to delete a project that still holds workspaces.
 *
 * @example
 * const org = platform.Organization.fromName(stack, 'acme', 'acme');
 * const apps = new platform.Project(stack, 'apps', { organization: org, name: 'apps' });
 * new platform.Workspace(stack, 'web', { organization: org, name: 'web', project: apps });
 */
export class Project extends Resource implements IProject {
  /**
   * A project that exists outside this app, by its organization and name (unique in the
   * organization): read at plan time (the plan fails, naming this construct, when it does not exist),
   * never changed nor deleted.
   * @param provider the platform provider to read it with (default: the stack's)
   */
  public static fromName(scope: Construct, id: string, organization: IOrganization, name: string, provider?: PlatformProvider): IProject {
    return new ExistingProject(scope, id, organization, name, provider);
  }

  /** The project name. */
  public readonly projectName: string;

  constructor(scope: Construct, id: string, props: ProjectProps) {
    super(scope, id, PROJECT.kind, PROJECT.api, props, props.provider);
    useReference(this, 'organization', props.organization, 'organizationName', 'an organization (an Organization, or Organization.fromName)');
    this.projectName = props.name;
  }

  /** The project id (`prj-…`), known once applied. */
  public get projectId(): string {
    return this._attrString('id');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return PROJECT;
  }

  /** @internal */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    return { ...props, organization: refKey(props.organization, 'organizationName') };
  }
}

/** A project looked up by organization and name (`Project.fromName`): the import id `<organization>/<name>`. */
class ExistingProject extends ExistingObject implements IProject {
  public readonly projectName: string;

  constructor(scope: Construct, id: string, organization: IOrganization, name: string, provider?: PlatformProvider) {
    super(scope, id, PROJECT.kind, PROJECT.api, `${organization.organizationName}/${name}`, 'organization and name', provider);
    this.projectName = name;
  }

  public get projectId(): string {
    return this._attrString('id');
  }
}
