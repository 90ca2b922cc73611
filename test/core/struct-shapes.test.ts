import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../lib/core/constructs/testing';
import * as mesh from '../../lib/mesh';
import * as secrets from '../../lib/secrets';

// Props are checked at every depth against the structs the jsii assembly declares: a plain object inside a
// list or map (a Python dict, a TypeScript object behind a cast) spelt with another language's field names is
// accepted as that field; an unknown key is refused with the construct path and a hint.
const stack = () => new TerraformStack(new App(), 'prod');
const spec = (s: TerraformStack, id: string) => ConvergeTesting.desiredState(s).resources[id].spec;

describe('nested struct props', () => {
  test('snake_case keys in lists and maps of structs equal the camelCase props', () => {
    const camel = stack();
    new mesh.ServiceRouter(camel, 'router', { name: 'web', routes: [{ match: { http: { pathPrefix: '/x', header: [{ name: 'x-canary', exact: '1' }] } }, destination: { requestTimeout: '10s', numRetries: 2 } }] });
    new mesh.ServiceResolver(camel, 'resolver', { name: 'web', subsets: { v2: { filter: 'Service.Meta.version == v2', onlyPassing: true } } });
    const snake = stack();
    new mesh.ServiceRouter(snake, 'router', { name: 'web', routes: [{ match: { http: { path_prefix: '/x', header: [{ name: 'x-canary', exact: '1' }] } }, destination: { request_timeout: '10s', num_retries: 2 } }] } as any);
    new mesh.ServiceResolver(snake, 'resolver', { name: 'web', subsets: { v2: { filter: 'Service.Meta.version == v2', only_passing: true } } } as any);
    expect(spec(snake, 'router')).toEqual(spec(camel, 'router'));
    expect(spec(snake, 'router').routes[0].match.http.pathPrefix).toBe('/x');
    expect(spec(snake, 'resolver')).toEqual(spec(camel, 'resolver'));
    expect(spec(snake, 'resolver').subsets.v2.onlyPassing).toBe(true);
  });

  test('an unknown nested key is refused with the construct path, the field path and a hint', () => {
    const s = stack();
    expect(() => new mesh.ServiceRouter(s, 'router', { name: 'web', routes: [{ match: { http: { pathPrefx: '/x' } } }] } as any))
      .toThrow('prod/router: routes[0].match.http.pathPrefx is not a field of mesh.RouteHttpMatch (did you mean pathPrefix?)');
    expect(() => new mesh.ServiceRouter(s, 'router2', { name: 'web', routes: [{ destination: { request_timeut: '1s' } }] } as any))
      .toThrow('prod/router2: routes[0].destination.request_timeut is not a field of mesh.RouteDestination (did you mean requestTimeout?)');
    expect(() => new mesh.ServiceResolver(s, 'resolver', { name: 'web', subsets: { v2: { colour: 'blue' } } } as any))
      .toThrow(/prod\/resolver: subsets\.v2\.colour is not a field of mesh\.ResolverSubset \(its fields are filter, onlyPassing\)/);
    // Top-level props too.
    expect(() => new mesh.ServiceSplitter(s, 'splitter', { name: 'web', split: [] } as any)).toThrow(/prod\/splitter: split is not a field of mesh\.ServiceSplitterProps \(did you mean splits\?\)/);
  });

  test('maps of plain values keep their keys (secret data is data, not fields)', () => {
    const s = stack();
    new secrets.KvSecret(s, 'cfg', { path: 'app/cfg', data: { db_user: 'app', log_level: 'info' }, customMetadata: { owner_team: 'x' } });
    expect(spec(s, 'cfg')).toMatchObject({ data: { db_user: 'app', log_level: 'info' }, customMetadata: { owner_team: 'x' } });
  });
});
