import { Construct } from 'constructs';
import { ApiProvider, ApiProviderProps } from '../core/constructs/api-provider';

/** Props of the secrets API provider. */
export interface SecretsProviderProps extends ApiProviderProps {}

/**
 * How the secrets constructs of a stack reach the secrets API: its address and the environment
 * variable that holds the token (the token is never synthesized).
 *
 * @example
 * new secrets.SecretsProvider(stack, 'secrets', { addressEnv: 'SECRETS_PROD_ADDR', tokenEnv: 'SECRETS_PROD_TOKEN' });
 */
export class SecretsProvider extends ApiProvider {
  constructor(scope: Construct, id: string, props: SecretsProviderProps = {}) {
    super(scope, id, 'secrets', props);
  }
}
