import { App, TerraformStack } from 'cdktf';
import { AclToken } from '../../../lib/mesh';

/** The mesh refuses a local token whose service identity lists datacenters: converge says so at synth, naming the field. */
test('a local token with a service identity that lists datacenters is refused at synth, naming the path and field', () => {
  const stack = new TerraformStack(new App(), 's');
  expect(() => new AclToken(stack, 'ci', { local: true, serviceIdentities: [{ serviceName: 'api' }, { serviceName: 'web', datacenters: ['dc1'] }] }))
    .toThrow("s/ci: serviceIdentities[1].datacenters a local token's service identity cannot list datacenters");
  // A global token may list them; a local one may have identities without datacenters.
  expect(() => new AclToken(stack, 'global', { serviceIdentities: [{ serviceName: 'web', datacenters: ['dc1'] }] })).not.toThrow();
  expect(() => new AclToken(stack, 'local', { local: true, serviceIdentities: [{ serviceName: 'web' }] })).not.toThrow();
});
