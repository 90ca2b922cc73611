import { Construct } from 'constructs';
import { ExistingObject } from '../../core/constructs/existing-object';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { SecretValue } from '../../core/constructs/secret-value';
import { check } from '../../core/constructs/validation';
import { KindSchema } from '../../core/schema';
import { IOrganization } from '../organization/organization';
import { PlatformProvider } from '../provider';
import { IProject } from '../project/project';
import { refKey, useReference } from '../shared/references';
import { OAUTH_CLIENT } from './oauth-client.schema';

/** An OAuth client (VCS connection): one this app manages, or one looked up with `OAuthClient.fromId`. */
export interface IOAuthClient {
  /** The client id (`oc-…`). */
  readonly oauthClientId: string;
  /** The id of the OAuth token the client manages (`ot-…`), for workspaces' VCS settings; known once read or applied. */
  readonly oauthTokenId: string;
}

/**
 * The VCS providers an OAuth client connects to: the real platform's ids (`github`, `gitlab_hosted`,
 * …), which real servers of the API (the platform itself, OTF) take. The spec writes them
 * anonymised (`provider_a`, …); those stay accepted, for servers that speak the spec's names.
 */
export enum VcsServiceProvider {
  /** GitHub (github.com). */
  GITHUB = 'github',
  /** GitHub Enterprise Server. */
  GITHUB_ENTERPRISE = 'github_enterprise',
  /** GitLab (gitlab.com). */
  GITLAB_HOSTED = 'gitlab_hosted',
  /** GitLab Community Edition. */
  GITLAB_COMMUNITY_EDITION = 'gitlab_community_edition',
  /** GitLab Enterprise Edition. */
  GITLAB_ENTERPRISE_EDITION = 'gitlab_enterprise_edition',
  /** Azure DevOps Server (needs `privateKey`). */
  ADO_SERVER = 'ado_server',
  /** The spec's anonymised name of GITHUB. */
  PROVIDER_A = 'provider_a',
  /** The spec's anonymised name of GITHUB_ENTERPRISE. */
  PROVIDER_A_ENTERPRISE = 'provider_a_enterprise',
  /** The spec's anonymised name of GITLAB_HOSTED. */
  PROVIDER_B_HOSTED = 'provider_b_hosted',
  /** The spec's anonymised name of GITLAB_COMMUNITY_EDITION. */
  PROVIDER_B_COMMUNITY_EDITION = 'provider_b_community_edition',
  /** The spec's anonymised name of GITLAB_ENTERPRISE_EDITION. */
  PROVIDER_B_ENTERPRISE_EDITION = 'provider_b_enterprise_edition',
  /** The spec's anonymised name of ADO_SERVER (needs `privateKey`). */
  PROVIDER_C_SERVER = 'provider_c_server',
}

/** Props of an OAuth client (a VCS connection created from a pre-generated OAuth token string). */
export interface OAuthClientProps extends ResourceProps {
  /** The organization (an `Organization`, or `Organization.fromName`). A change replaces the client. */
  readonly organization: IOrganization;
  /**
   * Display name. With the provider and the HTTP URL it is how converge finds a client it created
   * when a crash lost the record, so give one when several clients share a provider and URL.
   * @default - none: the platform shows the provider's display name
   */
  readonly name?: string;
  /** The VCS provider. A change replaces the client. */
  readonly serviceProvider: VcsServiceProvider;
  /**
   * Client key of the provider (consumer key, application key, …). Not needed with a token string,
   * as the platform's own client sends none.
   * @default - none
   */
  readonly key?: string;
  /** Homepage of the VCS provider. A change replaces the client. */
  readonly httpUrl: string;
  /** API base URL of the VCS provider. A change replaces the client. */
  readonly apiUrl: string;
  /**
   * The OAuth token string given by the provider (the spec's `oauth-token-string`): write-only, compared
   * by its HMAC. A change replaces the client.
   */
  readonly oauthToken: SecretValue;
  /**
   * SSH private key of the account: required for `ADO_SERVER` (`PROVIDER_C_SERVER`). Write-only; a change replaces the client.
   * @default - none
   */
  readonly privateKey?: SecretValue;
  /**
   * OAuth client secret (for a data-center edition: the application link's SSH private key). Write-only, updated in place.
   * @default - none
   */
  readonly secret?: SecretValue;
  /**
   * SSH public key, given with `secret` for a data-center edition.
   * @default - none
   */
  readonly rsaPublicKey?: string;
  /**
   * Available to every project and workspace of the organization; false: only to `projects`.
   * @default true
   */
  readonly organizationScoped?: boolean;
  /**
   * The projects the client is attached to (`Project`s, or `Project.fromName`), kept in sync by attach and detach.
   * @default []
   */
  readonly projects?: IProject[];
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

/**
 * An OAuth client: connects an organization to a VCS provider with a pre-generated token. Replacing
 * or destroying it unlinks every workspace that uses it from its repository.
 *
 * @example
 * const org = platform.Organization.fromName(stack, 'acme', 'acme');
 * new platform.OAuthClient(stack, 'vcs', {
 *   organization: org,
 *   name: 'vcs',
 *   serviceProvider: platform.VcsServiceProvider.PROVIDER_A,
 *   httpUrl: 'https://vcs.example.com',
 *   apiUrl: 'https://api.vcs.example.com',
 *   key: 'oauth-app-client-id',
 *   oauthToken: SecretValue.fromEnv('VCS_OAUTH_TOKEN'),
 * });
 */
export class OAuthClient extends Resource implements IOAuthClient {
  /**
   * An OAuth client that exists outside this app, by its id (`oc-…`; names are not unique): read at
   * plan time (the plan fails, naming this construct, when it does not exist), never changed nor deleted.
   * @param provider the platform provider to read it with (default: the stack's)
   */
  public static fromId(scope: Construct, id: string, oauthClientId: string, provider?: PlatformProvider): IOAuthClient {
    return new ExistingOAuthClient(scope, id, oauthClientId, provider);
  }

  constructor(scope: Construct, id: string, props: OAuthClientProps) {
    super(scope, id, OAUTH_CLIENT.kind, OAUTH_CLIENT.api, props, props.provider);
    useReference(this, 'organization', props.organization, 'organizationName', 'an organization (an Organization, or Organization.fromName)');
    (Array.isArray(props.projects) ? props.projects : []).forEach((p, i) => useReference(this, `projects[${i}]`, p, 'projectId', 'a project (a Project, or Project.fromName)'));
    if (props.serviceProvider === VcsServiceProvider.PROVIDER_C_SERVER || props.serviceProvider === VcsServiceProvider.ADO_SERVER) {
      check(props.privateKey !== undefined, this, 'privateKey', `is required for ${props.serviceProvider === VcsServiceProvider.ADO_SERVER ? 'ADO_SERVER' : 'PROVIDER_C_SERVER'} (a SecretValue)`);
    }
    check(props.rsaPublicKey === undefined || props.secret !== undefined, this, 'rsaPublicKey', 'needs `secret` too (data-center edition)');
  }

  /** The client id (`oc-…`), known once applied. */
  public get oauthClientId(): string {
    return this._attrString('id');
  }

  /** The id of the OAuth token the client manages (`ot-…`), for workspaces' VCS settings; known once applied. */
  public get oauthTokenId(): string {
    return this._attrString('oauthTokenId');
  }

  /** @internal */
  protected _schema(): KindSchema {
    return OAUTH_CLIENT;
  }

  /** @internal */
  protected _schemaProps(props: Record<string, any>): Record<string, any> {
    const { projects, ...rest } = props;
    return {
      ...rest,
      organization: refKey(props.organization, 'organizationName'),
      ...(projects !== undefined ? { projects: (Array.isArray(projects) ? projects.map((p) => refKey(p, 'projectId')) : projects) } : {}),
    };
  }
}

/** An OAuth client looked up by id (`OAuthClient.fromId`). */
class ExistingOAuthClient extends ExistingObject implements IOAuthClient {
  public readonly oauthClientId: string;

  constructor(scope: Construct, id: string, oauthClientId: string, provider?: PlatformProvider) {
    super(scope, id, OAUTH_CLIENT.kind, OAUTH_CLIENT.api, oauthClientId, 'id', provider);
    this.oauthClientId = oauthClientId;
  }

  public get oauthTokenId(): string {
    return this._attrString('oauthTokenId');
  }
}
