import { Construct } from 'constructs';
import { ApiProvider, ApiProviderProps } from '../core/constructs/api-provider';
import { PLATFORM_API_PROFILE } from './api-profile';

/** Props of the platform API provider. */
export interface PlatformProviderProps extends ApiProviderProps {}

/**
 * How the platform constructs of a stack reach the platform API: its address and the environment
 * variable that holds the token (the token is never synthesized).
 *
 * @example
 * new platform.PlatformProvider(stack, 'platform', { address: 'https://platform.example.com', tokenEnv: 'PLATFORM_PROD_TOKEN' });
 */
export class PlatformProvider extends ApiProvider {
  constructor(scope: Construct, id: string, props: PlatformProviderProps = {}) {
    // The profile, loaded with this module, gives the standard variables and the token variables of the APIs.
    super(scope, id, PLATFORM_API_PROFILE.api, props);
  }
}
