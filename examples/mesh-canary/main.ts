// A canary release of the `web` service on the mesh: 90% of the traffic to the stable subset v1, 10% to the
// canary v2, requests with `x-canary: 1` always to the canary, and failover to dc2 when a subset has no healthy instance.
import { App, TerraformStack } from 'cdktf';
import { mesh } from 'cdk-converge';

const app = new App();
const stack = new TerraformStack(app, 'mesh-canary');

// Splitters and routers need an L7 protocol: the service speaks HTTP.
new mesh.ServiceDefaults(stack, 'web-defaults', { name: 'web', protocol: mesh.MeshProtocol.HTTP });

// Subsets by the version the instances register in their metadata; v1 by default; every subset fails over to dc2.
new mesh.ServiceResolver(stack, 'web-resolver', {
  name: 'web',
  connectTimeout: '5s',
  defaultSubset: 'v1',
  subsets: {
    v1: { filter: 'Service.Meta.version == v1', onlyPassing: true },
    v2: { filter: 'Service.Meta.version == v2', onlyPassing: true },
  },
  failover: { '*': { datacenters: ['dc2'] } },
});

// The canary weight: move it to 50, then 100, as confidence grows (`converge plan` shows the traffic change).
new mesh.ServiceSplitter(stack, 'web-splitter', {
  name: 'web',
  splits: [
    { weight: 90, serviceSubset: 'v1' },
    { weight: 10, serviceSubset: 'v2' },
  ],
});

// Testers opt in with a header; everything else goes through the splitter.
new mesh.ServiceRouter(stack, 'web-router', {
  name: 'web',
  routes: [{
    match: { http: { pathPrefix: '/', header: [{ name: 'x-canary', exact: '1' }] } },
    destination: { serviceSubset: 'v2', requestTimeout: '15s', numRetries: 2, retryOnConnectFailure: true },
  }],
});

// The compiled chain, read at plan time: `converge output` shows its protocol and targets. Its attributes are typed
// strings (`chain.protocol`, `chain.startNode`, `chain.targetIds`) that other constructs' props take as references.
new mesh.DiscoveryChain(stack, 'web-chain', { service: 'web' });

app.synth();
