import { ResourceHandler } from '../../core/engine/handler';
import { AUTH_BACKEND } from './auth-backend.schema';
import { mountTableHandler } from './secrets-mount.handler';
import { policyPath, seg } from '../shared/policy-paths';

/** Lifecycle of `secrets.AuthBackend`: `sys/auth/<path>`, tuned in place through `sys/auth/<path>/tune`. */
export const authBackendHandler: ResourceHandler = mountTableHandler(AUTH_BACKEND, 'auth',
  'disables the auth method: its roles are gone, and every token it issued is revoked',
  // The service asks `sudo` for every request to an auth method's entry and its tune.
  (s) => [policyPath(`sys/auth/${seg(s.path)}`, 'read', 'update', 'delete', 'sudo'), policyPath(`sys/auth/${seg(s.path)}/tune`, 'update', 'sudo')]);
