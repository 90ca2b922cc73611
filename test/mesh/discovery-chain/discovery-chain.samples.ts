import { MeshProtocol } from '../../../lib/mesh';
import fc from 'fast-check';
import { badDuration, badMeshName, notEnum } from '../../reliability/prop-arbitraries';
import { FamilySamples } from '../../support/samples';

/** The samples of the discovery-chain family's kinds: see test/support/samples.ts. */
export const SAMPLES: FamilySamples = {
  'mesh.DiscoveryChain': {
    props: {
      base: { service: 'web' },
      optional: { namespace: 'default', compileDatacenter: 'dc2', overrides: { connectTimeout: '5s', protocol: MeshProtocol.HTTP } },
      invalid: {
        service: badMeshName,
        overrides: fc.oneof(badDuration.map((connectTimeout) => ({ connectTimeout })), notEnum.map((protocol) => ({ protocol })),
          notEnum.map((meshGatewayMode) => ({ meshGatewayMode }))),
      },
    },
  },
};
