import './cdk-adapter';
import { TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { ApiName } from '../model';
import { forbiddenProviderVariable, standardVariablesOf } from '../reserved-variables';

/** Where an API provider reads its address and token. */
export interface ApiProviderProps {
  /**
   * The API's address (without the `/api/v2` or `/v1` prefix).
   * @default - read from the address environment variable when converge runs
   */
  readonly address?: string;
  /**
   * Environment variable holding the address.
   * @default - the API's standard variable (`PLATFORM_ADDRESS`, `SECRETS_ADDR`, `MESH_HTTP_ADDR`)
   */
  readonly addressEnv?: string;
  /**
   * Environment variable holding the token. The token itself is never synthesized.
   * @default - the API's standard variable (`PLATFORM_TOKEN`, `SECRETS_TOKEN`, `MESH_HTTP_TOKEN`)
   */
  readonly tokenEnv?: string;
  /**
   * Path of a PEM file of the certificate authorities to trust for this API (in place of the
   * system's), read when converge runs. A path, never the certificate itself.
   * @default - the API's CA variable (`PLATFORM_CACERT`, `SECRETS_CACERT`, `MESH_CACERT`), else the system's CAs
   */
  readonly caCertFile?: string;
  /**
   * Path of a PEM client certificate, for a server that verifies its clients (with `clientKeyFile`).
   * @default - the API's variable (`PLATFORM_CLIENT_CERT`, `SECRETS_CLIENT_CERT`, `MESH_CLIENT_CERT`), else none
   */
  readonly clientCertFile?: string;
  /**
   * Path of the PEM private key of `clientCertFile`. A path, never the key itself.
   * @default - the API's variable (`PLATFORM_CLIENT_KEY`, `SECRETS_CLIENT_KEY`, `MESH_CLIENT_KEY`), else none
   */
  readonly clientKeyFile?: string;
  /**
   * Accept any server certificate for this API. For tests only: anyone on the path can then read the token.
   * @default - the API's variable (`PLATFORM_SKIP_VERIFY`, `SECRETS_SKIP_VERIFY`, `MESH_HTTP_SSL_VERIFY=false`), else false
   */
  readonly skipTlsVerify?: boolean;
  /**
   * Allow a plain `http://` address to a host that is not this machine (the token then travels in clear).
   * @default - `CONVERGE_ALLOW_INSECURE_HTTP=1`, else false: refused
   */
  readonly allowInsecureHttp?: boolean;
}

/**
 * How the constructs of one API in a stack reach it. Without a provider construct, the
 * standard environment variables are used.
 */
export abstract class ApiProvider extends Construct {
  /** The API this provider is for: `platform`, `secrets` or `mesh`. */
  public readonly api: string;
  /** Address given in the app, if any. */
  public readonly address?: string;
  /** Environment variable holding the address. */
  public readonly addressEnv: string;
  /** Environment variable holding the token. */
  public readonly tokenEnv: string;
  /** CA bundle file for this API, if given. */
  public readonly caCertFile?: string;
  /** Client certificate file, if given. */
  public readonly clientCertFile?: string;
  /** Client key file, if given. */
  public readonly clientKeyFile?: string;
  /** Whether server certificates go unverified, if given. */
  public readonly skipTlsVerify?: boolean;
  /** Whether plain HTTP to another host is allowed, if given. */
  public readonly allowInsecureHttp?: boolean;

  protected constructor(scope: Construct, id: string, api: string, props: ApiProviderProps) {
    super(scope, id);
    // The API's profile is registered: the subclass's module (each domain's provider) loads it.
    const defaults = standardVariablesOf(api);
    const stack = TerraformStack.of(this);
    providers.set(stack, [...(providers.get(stack) ?? []), this]);
    this.api = api;
    this.address = props.address;
    this.addressEnv = props.addressEnv ?? defaults.addressEnv;
    this.tokenEnv = props.tokenEnv ?? defaults.tokenEnv;
    this.caCertFile = props.caCertFile;
    this.clientCertFile = props.clientCertFile;
    this.clientKeyFile = props.clientKeyFile;
    this.skipTlsVerify = props.skipTlsVerify;
    this.allowInsecureHttp = props.allowInsecureHttp;
    for (const [field, v] of [['caCertFile', this.caCertFile], ['clientCertFile', this.clientCertFile], ['clientKeyFile', this.clientKeyFile]] as const) {
      if (v !== undefined && (typeof v !== 'string' || v.trim() === '' || v.includes('-----BEGIN'))) {
        throw new Error(`${this.node.path}: ${field} must be the path of a PEM file (never its contents)`);
      }
    }
    if (Boolean(this.clientCertFile) !== Boolean(this.clientKeyFile)) {
      throw new Error(`${this.node.path}: clientCertFile and clientKeyFile go together (a client certificate needs its key)`);
    }
    for (const [field, v] of [['addressEnv', this.addressEnv], ['tokenEnv', this.tokenEnv]] as const) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) {
        throw new Error(`${this.node.path}: ${field} "${v}" is not a valid environment variable name`);
      }
      const forbidden = forbiddenProviderVariable(api as ApiName, v, field === 'tokenEnv' ? 'token' : 'address');
      if (forbidden) throw new Error(`${this.node.path}: ${field} is refused: ${forbidden}`);
    }
  }

  /**
   * The transport settings of the synthesized provider (file paths and flags, never contents).
   * @internal
   */
  public _transport(): { caCertFile?: string; clientCertFile?: string; clientKeyFile?: string; skipTlsVerify?: boolean; allowInsecureHttp?: boolean; tokenHeader?: string } {
    const out: Record<string, string | boolean> = {};
    if (this.caCertFile) out.caCertFile = this.caCertFile;
    if (this.clientCertFile) out.clientCertFile = this.clientCertFile;
    if (this.clientKeyFile) out.clientKeyFile = this.clientKeyFile;
    if (this.skipTlsVerify !== undefined) out.skipTlsVerify = this.skipTlsVerify;
    if (this.allowInsecureHttp !== undefined) out.allowInsecureHttp = this.allowInsecureHttp;
    return out;
  }
}

const providers = new WeakMap<TerraformStack, ApiProvider[]>();

/** The provider constructs of a stack, in the order they were made. */
export function providersOf(stack: TerraformStack): readonly ApiProvider[] {
  return providers.get(stack) ?? [];
}
