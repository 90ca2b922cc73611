// The Java and Go apps' twin in TypeScript (scripts/test-languages.sh compares their desired state with it).
import { App, TerraformStack } from 'cdktf';
import { mesh, platform, secrets, SecretValue } from 'cdk-converge';

const app = new App();
const stack = new TerraformStack(app, 'languages');
const org = new platform.Organization(stack, 'org', { name: 'acme-lang', email: 'ops@acme.io' });
new secrets.KvSecret(stack, 'db', { path: `${org.name}/db`, data: { user: 'app', password: SecretValue.fromEnv('LANGUAGES_DB_PASSWORD') } });
new mesh.ServiceDefaults(stack, 'web-defaults', { name: 'web', protocol: mesh.MeshProtocol.HTTP });
new mesh.ServiceSplitter(stack, 'web-splitter', {
  name: 'web',
  splits: [{ weight: 90, serviceSubset: 'v1' }, { weight: 10, serviceSubset: 'v2' }],
});
app.synth();
