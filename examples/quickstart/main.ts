// The quick start: an organization on the platform and two secrets for its application.
// `npm start` runs it against the bundled emulator; `converge plan` / `apply` run it anywhere.
import { App, TerraformStack } from 'cdktf';
import { platform, secrets, SecretValue } from 'cdk-converge';

const app = new App();
const stack = new TerraformStack(app, 'quickstart');

// Organizations are retained by default: destroying the stack forgets the organization, it never deletes its data.
const org = new platform.Organization(stack, 'org', {
  name: 'acme',
  email: 'ops@acme.io',
  collaboratorAuthPolicy: platform.CollaboratorAuthPolicy.TWO_FACTOR_MANDATORY,
});

// The password comes from the environment when converge runs; it is never written in the synthesized output or state.
new secrets.KvSecret(stack, 'db', {
  path: `${org.name}/db`,
  data: { user: 'app', password: SecretValue.fromEnv('QUICKSTART_DB_PASSWORD') },
  customMetadata: { owner: 'platform-team' },
  maxVersions: 5,
});

new secrets.KvSecret(stack, 'feature-flags', {
  path: `${org.name}/flags`,
  data: { checkout: 'on', search: 'off' },
});

app.synth();
