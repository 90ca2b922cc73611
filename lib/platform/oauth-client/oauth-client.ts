import { Construct } from 'constructs';
import { Resource, ResourceProps } from '../../core/constructs/resource';
import { SecretValue } from '../../core/constructs/secret-value';
import { check, checkOneOf } from '../../core/constructs/validation';
import { checkBoolean, checkString, checkStringList } from '../prop-checks';
import { PlatformProvider } from '../provider';
import { stringSet } from '../../core/string-set';

/** The VCS providers an OAuth client connects to. */
export enum VcsServiceProvider {
  /** Provider A (hosted). */
  PROVIDER_A = 'provider_a',
  /** Provider A, enterprise server. */
  PROVIDER_A_ENTERPRISE = 'provider_a_enterprise',
  /** Provider B (hosted). */
  PROVIDER_B_HOSTED = 'provider_b_hosted',
  /** Provider B, community edition. */
  PROVIDER_B_COMMUNITY_EDITION = 'provider_b_community_edition',
  /** Provider B, enterprise edition. */
  PROVIDER_B_ENTERPRISE_EDITION = 'provider_b_enterprise_edition',
  /** Provider C server (needs `privateKey`). */
  PROVIDER_C_SERVER = 'provider_c_server',
}

/** Props of an OAuth client (a VCS connection created from a pre-generated OAuth token string). */
export interface OAuthClientProps extends ResourceProps {
  /** Name of the organization (e.g. `org.name`). A change replaces the client. */
  readonly organization: string;
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
  /** The OAuth token string given by the provider: write-only, compared by its HMAC. A change replaces the client. */
  readonly oauthToken: SecretValue;
  /**
   * SSH private key of the account: required for `PROVIDER_C_SERVER`. Write-only; a change replaces the client.
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
   * Project ids (`prj-…`) the client is attached to, kept in sync by attach and detach.
   * @default []
   */
  readonly projects?: string[];
  /**
   * The platform provider to use.
   * @default - the stack's platform provider, else the standard environment variables
   */
  readonly provider?: PlatformProvider;
}

const ORG_RE = /^[A-Za-z0-9_-]+$/;

/**
 * An OAuth client: connects an organization to a VCS provider with a pre-generated token. Replacing
 * or destroying it unlinks every workspace that uses it from its repository.
 *
 * @example
 * new platform.OAuthClient(stack, 'vcs', {
 *   organization: 'acme',
 *   name: 'vcs',
 *   serviceProvider: platform.VcsServiceProvider.PROVIDER_A,
 *   httpUrl: 'https://vcs.example.com',
 *   apiUrl: 'https://api.vcs.example.com',
 *   key: 'oauth-app-client-id',
 *   oauthToken: SecretValue.fromEnv('VCS_OAUTH_TOKEN'),
 * });
 */
export class OAuthClient extends Resource {
  private readonly props: OAuthClientProps;

  constructor(scope: Construct, id: string, props: OAuthClientProps) {
    super(scope, id, 'platform.OAuthClient', 'platform', props, props.provider);
    // Naming the organization orders this construct after an Organization construct of that name.
    if (typeof props.organization === 'string') this._dependOnNamed('platform.Organization', props.organization);
    this.props = props;
    check(typeof props.organization === 'string' && ORG_RE.test(props.organization), this, 'organization',
      `"${props.organization}" may contain only letters, numbers, '-' and '_'`);
    check(props.name === undefined || (typeof props.name === 'string' && props.name.length > 0), this, 'name', 'must be a non-empty string when given');
    check(props.serviceProvider !== undefined, this, 'serviceProvider', 'is required');
    checkOneOf(this, 'serviceProvider', props.serviceProvider, Object.values(VcsServiceProvider));
    checkString(this, 'rsaPublicKey', props.rsaPublicKey);
    checkBoolean(this, 'organizationScoped', props.organizationScoped);
    checkStringList(this, 'projects', props.projects, true);
    check(props.key === undefined || (typeof props.key === 'string' && props.key.length > 0), this, 'key', 'must be a non-empty string when given');
    for (const f of ['httpUrl', 'apiUrl'] as const) {
      check(typeof props[f] === 'string' && /^https?:\/\/\S+$/.test(props[f]), this, f, `"${props[f]}" must be an http(s) URL`);
    }
    check(props.oauthToken instanceof SecretValue, this, 'oauthToken', 'must be a SecretValue');
    if (props.serviceProvider === VcsServiceProvider.PROVIDER_C_SERVER) {
      check(props.privateKey instanceof SecretValue, this, 'privateKey', 'is required for PROVIDER_C_SERVER (a SecretValue)');
    }
    check(props.privateKey === undefined || props.privateKey instanceof SecretValue, this, 'privateKey', 'must be a SecretValue');
    check(props.secret === undefined || props.secret instanceof SecretValue, this, 'secret', 'must be a SecretValue');
    check(props.rsaPublicKey === undefined || props.secret !== undefined, this, 'rsaPublicKey', 'needs `secret` too (data-center edition)');
    for (const p of props.projects ?? []) check(typeof p !== 'string' || /^prj-/.test(p), this, 'projects', `"${p}" is not a project id (prj-…)`);
  }

  /** The client id (`oc-…`), known once applied. */
  public get oauthClientId(): any {
    return this._attrRef('id');
  }

  /** The id of the OAuth token the client manages (`ot-…`), for workspaces' VCS settings. */
  public get oauthTokenId(): any {
    return this._attrRef('oauthTokenId');
  }

  /** @internal */
  protected _renderSpec(): Record<string, any> {
    const p = this.props;
    return {
      organization: p.organization,
      name: p.name ?? null,
      serviceProvider: p.serviceProvider,
      key: p.key ?? null,
      httpUrl: p.httpUrl,
      apiUrl: p.apiUrl,
      oauthToken: p.oauthToken,
      privateKey: p.privateKey ?? null,
      secret: p.secret ?? null,
      rsaPublicKey: p.rsaPublicKey ?? null,
      organizationScoped: p.organizationScoped ?? true,
      projects: stringSet(p.projects),
    };
  }
}
