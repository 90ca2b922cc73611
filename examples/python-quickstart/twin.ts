// main.py's twin in TypeScript: the same stack, which test/package/python.test.ts synthesizes beside the
// Python app and compares (the desired state of both must be equal).
import { App, TerraformStack } from 'cdktf';
import { mesh, platform, secrets, SecretValue } from 'cdk-converge';

const app = new App();
const stack = new TerraformStack(app, 'python-quickstart');

const org = new platform.Organization(stack, 'org', {
  name: 'acme-py',
  email: 'ops@acme.io',
  collaboratorAuthPolicy: platform.CollaboratorAuthPolicy.TWO_FACTOR_MANDATORY,
});

new secrets.KvSecret(stack, 'db', {
  path: `${org.name}/db`,
  data: { user: 'app', password: SecretValue.fromEnv('QUICKSTART_DB_PASSWORD') },
  customMetadata: { owner: 'platform-team' },
  maxVersions: 5,
});

new mesh.ServiceDefaults(stack, 'web-defaults', { name: 'web', protocol: mesh.MeshProtocol.HTTP });

new mesh.ServiceResolver(stack, 'web-resolver', {
  name: 'web',
  connectTimeout: '5s',
  defaultSubset: 'v1',
  subsets: {
    v1: { filter: 'Service.Meta.version == v1', onlyPassing: true },
    v2: { filter: 'Service.Meta.version == v2', onlyPassing: true },
  },
});

new mesh.ServiceSplitter(stack, 'web-splitter', {
  name: 'web',
  splits: [
    { weight: 90, serviceSubset: 'v1' },
    { weight: 10, serviceSubset: 'v2' },
  ],
});

new mesh.ServiceRouter(stack, 'web-router', {
  name: 'web',
  routes: [
    {
      match: { http: { pathPrefix: '/', header: [{ name: 'x-canary', exact: '1' }] } },
      destination: { serviceSubset: 'v2', requestTimeout: '15s', numRetries: 2 },
    },
    { match: { http: { pathPrefix: '/admin' } }, destination: { serviceSubset: 'v1', requestTimeout: '10s' } },
  ],
});

app.synth();
