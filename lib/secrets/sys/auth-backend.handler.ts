import { ResourceHandler } from '../../core/engine/handler';
import { AUTH_BACKEND } from './auth-backend.schema';
import { mountTableHandler } from './secrets-mount.handler';

/** Lifecycle of `secrets.AuthBackend`: `sys/auth/<path>`, tuned in place through `sys/auth/<path>/tune`. */
export const authBackendHandler: ResourceHandler = mountTableHandler(AUTH_BACKEND, 'auth',
  'disables the auth method: its roles are gone, and every token it issued is revoked');
