import { DomainKinds } from '../core/engine/registry';
import { SECRETS_API_PROFILE } from './api-profile';
import { kvSecretDataHandler } from './kv/kv-secret-data.handler';
import { kvSecretSubkeysHandler } from './kv/kv-secret-subkeys.handler';
import { totpKeyInfoHandler } from './totp/totp-key-info.handler';
import { meshTokenCredentialsHandler } from './mesh-token/mesh-token-credentials.handler';
import { platformTokenCredentialsHandler } from './platform-token/platform-token-credentials.handler';
import { meshTokenConfigHandler } from './mesh-token/mesh-token-config.handler';
import { meshTokenRoleHandler } from './mesh-token/mesh-token-role.handler';
import { platformTokenConfigHandler } from './platform-token/platform-token-config.handler';
import { platformTokenRoleHandler } from './platform-token/platform-token-role.handler';
import { pushMfaMethodHandler } from './push-mfa/push-mfa-method.handler';
import { totpKeyHandler } from './totp/totp-key.handler';
import { databaseConnectionHandler } from './database/database-connection.handler';
import { databaseRoleHandler } from './database/database-role.handler';
import { databaseStaticRoleHandler } from './database/database-static-role.handler';
import { directoryConfigHandler } from './directory/directory-config.handler';
import { directoryLibrarySetHandler } from './directory/directory-library-set.handler';
import { directoryRoleHandler } from './directory/directory-role.handler';
import { databaseCredentialsHandler } from './database/database-credentials.handler';
import { databaseStaticCredentialsHandler } from './database/database-static-credentials.handler';
import { directoryCredentialsHandler } from './directory/directory-credentials.handler';
import { directoryLibraryCheckOutHandler } from './directory/directory-library-check-out.handler';
import { kvEngineConfigHandler } from './kv/kv-engine-config.handler';
import { kvSecretHandler } from './kv/kv-secret.handler';
import { secretsPreflight } from './preflight';
import { secretsMountHandler } from './sys/secrets-mount.handler';
import { secretsPolicyHandler } from './sys/secrets-policy.handler';
import { authBackendHandler } from './sys/auth-backend.handler';
import { appRoleRoleHandler } from './approle/approle-role.handler';
import { appRoleSecretIdHandler } from './approle/approle-secret-id.handler';

/** The secrets API's kinds: each resource and data source handler (each declares its kind once, in its schema). */
export const SECRETS_KINDS: DomainKinds = {
  resources: [kvSecretHandler, kvEngineConfigHandler, databaseConnectionHandler, databaseRoleHandler, databaseStaticRoleHandler, directoryConfigHandler, directoryRoleHandler, directoryLibrarySetHandler, totpKeyHandler, platformTokenConfigHandler, platformTokenRoleHandler, meshTokenConfigHandler, meshTokenRoleHandler, pushMfaMethodHandler,
    secretsMountHandler, secretsPolicyHandler, authBackendHandler, appRoleRoleHandler],
  dataSources: [kvSecretDataHandler, kvSecretSubkeysHandler, totpKeyInfoHandler, platformTokenCredentialsHandler, meshTokenCredentialsHandler,
    databaseCredentialsHandler, databaseStaticCredentialsHandler, directoryCredentialsHandler, directoryLibraryCheckOutHandler,
    appRoleSecretIdHandler],
  planHooks: [],
  preflight: { api: 'secrets', check: secretsPreflight },
  apiProfile: SECRETS_API_PROFILE,
};
