import { Construct } from 'constructs';
import { ApiProvider, ApiProviderProps } from '../core/constructs/api-provider';
import { parseTokenHeader } from '../core/http/api-profile';
import { SECRETS_API_PROFILE } from './api-profile';
import { SecretsTokenHeader } from './token-header';

/** Props of the secrets API provider. */
export interface SecretsProviderProps extends ApiProviderProps {
  /**
   * The header that carries the token. A real OpenBao or Vault reads `X-Vault-Token` or
   * `Authorization: Bearer`, not the spec's `X-Secrets-Token`: choose one of those to reach it
   * directly, without a proxy.
   * @default - the `SECRETS_TOKEN_HEADER` variable when converge runs (`X-Secrets-Token`, `X-Vault-Token` or `Authorization`), else `X-Secrets-Token`
   */
  readonly tokenHeader?: SecretsTokenHeader;
}

/**
 * How the secrets constructs of a stack reach the secrets API: its address, the environment
 * variable that holds the token (the token is never synthesized) and the header that carries it.
 *
 * @example
 * new secrets.SecretsProvider(stack, 'secrets', { addressEnv: 'SECRETS_PROD_ADDR', tokenEnv: 'SECRETS_PROD_TOKEN' });
 */
export class SecretsProvider extends ApiProvider {
  /** The header that carries the token, if given (else `SECRETS_TOKEN_HEADER`, else `X-Secrets-Token`). */
  public readonly tokenHeader?: SecretsTokenHeader;

  constructor(scope: Construct, id: string, props: SecretsProviderProps = {}) {
    super(scope, id, SECRETS_API_PROFILE.api, props);
    if (props.tokenHeader !== undefined) {
      // jsii languages may pass any string: refuse what the enum does not name.
      this.tokenHeader = parseTokenHeader(SECRETS_API_PROFILE.tokenHeaders, String(props.tokenHeader), `${this.node.path}: tokenHeader`, 'secrets') as SecretsTokenHeader;
    }
  }

  /** @internal */
  public _transport(): ReturnType<ApiProvider['_transport']> {
    return { ...super._transport(), ...(this.tokenHeader ? { tokenHeader: this.tokenHeader } : {}) };
  }
}
