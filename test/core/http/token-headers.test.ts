import { parseTokenHeader, tokenHeaderValues, tokenOfRequest } from '../../../lib/core/http/api-profile';
import { MESH_API_PROFILE } from '../../../lib/mesh/api-profile';
import { MeshTokenHeader } from '../../../lib/mesh/provider';
import { PLATFORM_API_PROFILE } from '../../../lib/platform/api-profile';
import { SECRETS_API_PROFILE } from '../../../lib/secrets/api-profile';
import { SecretsTokenHeader } from '../../../lib/secrets/token-header';

// One table of token headers per API (its api-profile): the provider's enum, the client, the CLI's
// variable and the emulator's auth all read it.

test('each provider enum offers exactly the headers of its API profile, the default first', () => {
  expect(Object.values(SecretsTokenHeader)).toEqual(SECRETS_API_PROFILE.tokenHeaders.names);
  expect(Object.values(MeshTokenHeader)).toEqual(MESH_API_PROFILE.tokenHeaders.names);
  expect(PLATFORM_API_PROFILE.tokenHeaders.names).toEqual(['Authorization']);
});

test('a setting names a header in any case (Bearer: Authorization); blank is the default; anything else names the source and the choices', () => {
  const t = MESH_API_PROFILE.tokenHeaders;
  expect(parseTokenHeader(t, 'x-consul-token', 'V', 'mesh')).toBe('X-Consul-Token');
  expect(parseTokenHeader(t, ' Bearer ', 'V', 'mesh')).toBe('Authorization');
  expect(parseTokenHeader(t, '  ', 'V', 'mesh')).toBe('X-Mesh-Token');
  expect(parseTokenHeader(t, undefined, 'V', 'mesh')).toBe('X-Mesh-Token');
  expect(() => parseTokenHeader(t, 'X-Vault-Token', 'MESH_TOKEN_HEADER', 'mesh'))
    .toThrow('MESH_TOKEN_HEADER is "X-Vault-Token": the mesh token header must be one of X-Mesh-Token, X-Consul-Token, Authorization');
});

test('the client sends what the server side reads back, for every header of every table', () => {
  for (const p of [PLATFORM_API_PROFILE, SECRETS_API_PROFILE, MESH_API_PROFILE]) {
    for (const name of p.tokenHeaders.names) {
      const sent = tokenHeaderValues(name, 's3cret');
      expect(Object.keys(sent)).toEqual([name.toLowerCase()]);
      expect(tokenOfRequest(p.tokenHeaders, sent)).toBe('s3cret');
    }
  }
  expect(tokenHeaderValues('Authorization', 't')).toEqual({ authorization: 'Bearer t' });
  // The spec's header wins over the others; none at all is "".
  expect(tokenOfRequest(SECRETS_API_PROFILE.tokenHeaders, { 'authorization': 'Bearer b', 'x-vault-token': 'v', 'x-secrets-token': 's' })).toBe('s');
  expect(tokenOfRequest(SECRETS_API_PROFILE.tokenHeaders, { authorization: 'Basic abc' })).toBe('');
});
