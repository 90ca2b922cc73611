import { SecretValue } from '../../lib/core/constructs/secret-value';
import { MeshTokenConfig } from '../../lib/secrets/mesh-token/mesh-token-config';
import { MeshTokenRole } from '../../lib/secrets/mesh-token/mesh-token-role';
import { PlatformTokenConfig } from '../../lib/secrets/platform-token/platform-token-config';
import { PlatformTokenRole } from '../../lib/secrets/platform-token/platform-token-role';
import { FullSample } from './full-samples';

const PEM = (what: string) => `-----BEGIN ${what}-----\nMIIBfull${what.replace(/\s/g, '')}sample\n-----END ${what}-----\n`;
const DEFAULT_MOUNT = 'the round-trip world mounts each engine at its default path only (engine-handlers tests other mounts)';

/** A full sample of each secrets kind of the tokens area. */
export const SECRETS_TOKENS_FULL_SAMPLES: Record<string, FullSample> = {
  'secrets.PlatformTokenConfig': {
    address: 'full-platform-token-config',
    build: (stack, world) => {
      new PlatformTokenConfig(stack, 'full-platform-token-config', { address: world.env.PLATFORM_ADDRESS, token: SecretValue.fromEnv('PLATFORM_TOKEN') });
    },
    defaultsKept: { mount: DEFAULT_MOUNT },
  },
  'secrets.PlatformTokenRole': {
    address: 'full-platform-token-role',
    build: (stack) => {
      new PlatformTokenRole(stack, 'full-platform-token-role', { name: 'full-user', userId: 'admin', ttl: '1h', maxTtl: '2h' });
    },
    defaultsKept: {
      mount: DEFAULT_MOUNT,
      organization: 'a role issues one kind of token: organization and teamId conflict with userId (the service refuses both)',
      teamId: 'a role issues one kind of token: organization and teamId conflict with userId (the service refuses both)',
    },
  },
  'secrets.MeshTokenConfig': {
    address: 'full-mesh-token-config',
    build: (stack, world) => {
      new MeshTokenConfig(stack, 'full-mesh-token-config', {
        address: new URL(world.env.MESH_HTTP_ADDR).host, token: SecretValue.fromEnv('MESH_HTTP_TOKEN'),
        caCert: PEM('CERTIFICATE'), clientCert: PEM('CERTIFICATE'), clientKey: SecretValue.unsafePlainText(PEM('PRIVATE KEY')),
      });
    },
    defaultsKept: { mount: DEFAULT_MOUNT, scheme: 'the emulated mesh serves plain HTTP' },
  },
  'secrets.MeshTokenRole': {
    address: 'full-mesh-token-role',
    build: (stack) => {
      new MeshTokenRole(stack, 'full-mesh-token-role', {
        name: 'full-role', meshVersion: '1.12', meshPolicies: ['ops', 'web'], meshRoles: ['reader'], serviceIdentities: ['web:dc1,dc2'],
        nodeIdentities: ['node-1:dc1'], meshNamespace: 'team-a', partition: 'part-a', local: true, ttl: '1h', maxTtl: '2h',
      });
    },
    defaultsKept: {
      mount: DEFAULT_MOUNT,
      tokenType: 'removed in mesh 1.11 (the emulated mesh is 1.13); mesh-token-legacy.e2e applies it against a mesh 1.10',
      policy: 'removed in mesh 1.11 (the emulated mesh is 1.13); mesh-token-legacy.e2e applies it against a mesh 1.10',
      lease: 'removed in mesh 1.4 (the emulated mesh is 1.13); engine-constructs tests its rendering',
    },
  },
};
