import './cdk-adapter';
import { TerraformStack } from 'cdktf';
import { Construct } from 'constructs';

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

  protected constructor(scope: Construct, id: string, api: string, props: ApiProviderProps) {
    super(scope, id);
    const defaults = API_DEFAULTS[api];
    const stack = TerraformStack.of(this);
    providers.set(stack, [...(providers.get(stack) ?? []), this]);
    this.api = api;
    this.address = props.address;
    this.addressEnv = props.addressEnv ?? defaults.addressEnv;
    this.tokenEnv = props.tokenEnv ?? defaults.tokenEnv;
    for (const [field, v] of [['addressEnv', this.addressEnv], ['tokenEnv', this.tokenEnv]] as const) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) {
        throw new Error(`${this.node.path}: ${field} "${v}" is not a valid environment variable name`);
      }
    }
  }
}

/** Default variables per API. */
export const API_DEFAULTS: Record<string, { addressEnv: string; tokenEnv: string }> = {
  platform: { addressEnv: 'PLATFORM_ADDRESS', tokenEnv: 'PLATFORM_TOKEN' },
  secrets: { addressEnv: 'SECRETS_ADDR', tokenEnv: 'SECRETS_TOKEN' },
  mesh: { addressEnv: 'MESH_HTTP_ADDR', tokenEnv: 'MESH_HTTP_TOKEN' },
};

const providers = new WeakMap<TerraformStack, ApiProvider[]>();

/** The provider constructs of a stack, in the order they were made. */
export function providersOf(stack: TerraformStack): readonly ApiProvider[] {
  return providers.get(stack) ?? [];
}
