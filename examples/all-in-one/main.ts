// The three APIs in one stack: a team's organization on the platform, its application's secrets and the mesh token
// its service gets from the secrets service, and the service's traffic configuration on the mesh.
import { App, TerraformStack } from 'cdktf';
import { mesh, platform, secrets, SecretValue } from 'cdk-converge';

/** `host:port` of the mesh as the secrets service reaches it (default: the mesh converge itself talks to). */
function meshAddressForSecrets(): string {
  const explicit = process.env.SHOP_MESH_ADDRESS;
  if (explicit) return explicit;
  if (!process.env.MESH_HTTP_ADDR) throw new Error('set SHOP_MESH_ADDRESS (host:port) or MESH_HTTP_ADDR (see examples/all-in-one/README.md)');
  return new URL(process.env.MESH_HTTP_ADDR).host;
}

const app = new App();
const stack = new TerraformStack(app, 'shop');

// Platform: the team's organization (retained on destroy: destroying the stack only forgets it).
const org = new platform.Organization(stack, 'org', {
  name: process.env.SHOP_ORG ?? 'shop-team',
  email: 'shop-team@acme.example',
});

// Secrets: the application's configuration, under the organization's name.
const config = new secrets.KvSecret(stack, 'shop-config', {
  path: `${org.name}/checkout`,
  data: { paymentsApiKey: SecretValue.fromEnv('SHOP_PAYMENTS_API_KEY'), currency: 'EUR' },
  customMetadata: { organization: org.name },
});
config.node.addDependency(org);

// Secrets ↔ mesh: the secrets service mints mesh ACL tokens with a management token (read from the environment
// when converge runs), and the `checkout` role hands out tokens with the service identity of `checkout`.
const meshAccess = new secrets.MeshTokenConfig(stack, 'mesh-access', {
  address: meshAddressForSecrets(),
  token: SecretValue.fromEnv('SHOP_MESH_MANAGEMENT_TOKEN'),
});
const tokenRole = new secrets.MeshTokenRole(stack, 'checkout-token', {
  name: 'checkout',
  serviceIdentities: ['checkout:dc1'],
  ttl: '1h',
  maxTtl: '24h',
});
tokenRole.node.addDependency(meshAccess);

// Mesh: checkout speaks HTTP; its router sends /payments to the payments service with retries.
new mesh.ServiceDefaults(stack, 'checkout-defaults', { name: 'checkout', protocol: mesh.MeshProtocol.HTTP });
new mesh.ServiceDefaults(stack, 'payments-defaults', { name: 'payments', protocol: mesh.MeshProtocol.HTTP });
new mesh.ServiceResolver(stack, 'payments-resolver', { name: 'payments', connectTimeout: '3s', failover: { '*': { datacenters: ['dc2'] } } });
new mesh.ServiceRouter(stack, 'checkout-router', {
  name: 'checkout',
  routes: [{
    match: { http: { pathPrefix: '/payments' } },
    destination: { service: 'payments', requestTimeout: '10s', numRetries: 3, retryOnStatusCodes: [503] },
  }],
});

app.synth();
