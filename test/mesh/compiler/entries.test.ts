import {
  checkFilterSyntax, checkGraph, decodeEntry, DecodeError, EntryValidationError, formatGoDuration, parseGoDuration, validateEntry, withEntry,
} from '../../../lib/mesh/compiler';

const invalid = (raw: unknown) => {
  try { validateEntry(decodeEntry(raw)); } catch (e) { expect(e).toBeInstanceOf(EntryValidationError); return (e as Error).message; }
  return undefined;
};

describe('durations in Go form', () => {
  test.each([[0, '0s'], [5e9, '5s'], [60e9, '1m0s'], [90e9, '1m30s'], [5e8, '500ms'], [3600e9, '1h0m0s'], [1500, '1.5µs'], [1.25e9, '1.25s']])(
    '%d ns is %s', (ns, s) => {
      expect(formatGoDuration(ns)).toBe(s);
      expect(parseGoDuration(s)).toBe(ns);
    });
  test('parse errors use Go\'s messages', () => {
    expect(() => parseGoDuration('1')).toThrow('time: missing unit in duration "1"');
    expect(() => parseGoDuration('1d')).toThrow('time: unknown unit "d" in duration "1d"');
    expect(() => parseGoDuration('x')).toThrow('time: invalid duration "x"');
    expect(parseGoDuration('1h30m')).toBe(5400e9);
  });
});

describe('decoding', () => {
  test('keys match case-insensitively and in snake_case; durations become Go strings', () => {
    expect(decodeEntry({ kind: 'service-resolver', name: 'web', connect_timeout: '60s', default_subset: 'v1', subsets: { v1: { only_passing: true } } }))
      .toEqual({ Kind: 'service-resolver', Name: 'web', ConnectTimeout: '1m0s', DefaultSubset: 'v1', Subsets: { v1: { OnlyPassing: true } } });
    expect(decodeEntry({ Kind: 'service-resolver', Name: 'web', ConnectTimeout: 15e9 })).toMatchObject({ ConnectTimeout: '15s' });
  });
  test('read fields are accepted and dropped; unknown keys and kinds are refused', () => {
    expect(decodeEntry({ Kind: 'service-defaults', Name: 'web', CreateIndex: 3, ModifyIndex: 4 })).toEqual({ Kind: 'service-defaults', Name: 'web' });
    expect(() => decodeEntry({ Kind: 'service-defaults', Name: 'web', Bogus: 1 })).toThrow("'' has invalid keys: Bogus");
    expect(() => decodeEntry({ Kind: 'nope', Name: 'x' })).toThrow('invalid config entry kind: "nope"');
    expect(() => decodeEntry({ Name: 'x' })).toThrow(DecodeError);
    expect(() => decodeEntry({ Kind: 'service-resolver', Name: 'x', ConnectTimeout: 'soon' })).toThrow('time: invalid duration "soon"');
  });
});

describe('validation, as the mesh system does it', () => {
  test('names', () => {
    expect(invalid({ Kind: 'service-defaults', Name: '' })).toBe('Name is required');
    expect(invalid({ Kind: 'service-defaults', Name: '*' })).toMatch(/not a wildcard/);
    expect(invalid({ Kind: 'proxy-defaults', Name: 'other' })).toBe('invalid name ("other"), only "global" is supported');
    expect(invalid({ Kind: 'service-defaults', Name: 'web', MeshGateway: { Mode: 'far' } })).toBe('Invalid Mesh Gateway mode "far"');
  });
  test('splitter weights sum to 100, destinations unique', () => {
    expect(invalid({ Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 50 }, { Weight: 40, Service: 'b' }] }))
      .toBe('the sum of all split weights must be 100, not 90.000000');
    expect(invalid({ Kind: 'service-splitter', Name: 'web', Splits: [] })).toBe('no splits configured');
    expect(invalid({ Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 50 }, { Weight: 50, Service: 'web' }] }))
      .toMatch(/^split destination occurs more than once/);
    expect(invalid({ Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 33.33 }, { Weight: 33.33, Service: 'a' }, { Weight: 33.34, Service: 'b' }] })).toBeUndefined();
  });
  test('route paths start with /; headers need a name and one match; PrefixRewrite needs a path', () => {
    expect(invalid({ Kind: 'service-router', Name: 'web', Routes: [{ Match: { HTTP: { PathPrefix: 'api' } } }] }))
      .toBe("Route[0] doesn't start with '/': \"api\"");
    expect(invalid({ Kind: 'service-router', Name: 'web', Routes: [{ Match: { HTTP: { Header: [{ Exact: 'x' }] } } }] }))
      .toBe('Route[0] Header[0] missing required Name field');
    expect(invalid({ Kind: 'service-router', Name: 'web', Routes: [{ Match: { HTTP: { Header: [{ Name: 'x' }] } } }] }))
      .toMatch(/should only contain one of/);
    expect(invalid({ Kind: 'service-router', Name: 'web', Routes: [{ Destination: { PrefixRewrite: '/' } }] }))
      .toBe('Route[0] cannot make use of PrefixRewrite without configuring either PathExact or PathPrefix');
  });
  test('resolver: redirect and failover not both, subset names are DNS labels, subsets exist', () => {
    expect(invalid({ Kind: 'service-resolver', Name: 'web', Redirect: { Service: 'a' }, Failover: { '*': { Datacenters: ['dc2'] } } }))
      .toBe('Redirect and Failover cannot both be set');
    expect(invalid({ Kind: 'service-resolver', Name: 'web', Subsets: { V1: {} } })).toMatch(/^Subset "V1" is invalid: /);
    expect(invalid({ Kind: 'service-resolver', Name: 'web', DefaultSubset: 'v1' })).toBe('DefaultSubset "v1" is not a valid subset');
    expect(invalid({ Kind: 'service-resolver', Name: 'web', Failover: { v1: { Datacenters: ['dc2'] } } })).toBe('Bad Failover["v1"]: not a valid subset');
    expect(invalid({ Kind: 'service-resolver', Name: 'web', Failover: { '*': {} } })).toMatch(/one of Service, ServiceSubset, Namespace, or Datacenters is required/);
    expect(invalid({ Kind: 'service-resolver', Name: 'web', Redirect: {} })).toBeUndefined(); // decoded away: no redirect
    expect(invalid({ Kind: 'service-resolver', Name: 'web', Redirect: { ServiceSubset: 'v1' } })).toBe('Redirect.ServiceSubset defined without Redirect.Service');
    expect(invalid({ Kind: 'service-resolver', Name: 'web', Subsets: { v1: { Filter: 'Service.Meta.v ==' } } })).toMatch(/is not a valid expression/);
  });
  test('filter syntax', () => {
    expect(checkFilterSyntax('Service.Meta.version == v1 and "canary" in Service.Tags')).toBeUndefined();
    expect(checkFilterSyntax('not (Service.Tags is empty)')).toBeUndefined();
    expect(checkFilterSyntax('(a == b')).toBe('missing closing parenthesis');
  });
});

describe('graph check', () => {
  const http = decodeEntry({ Kind: 'service-defaults', Name: 'web', Protocol: 'http' });
  const splitter = decodeEntry({ Kind: 'service-splitter', Name: 'web', Splits: [{ Weight: 100 }] });
  test('an entry that would break some chain is refused, on write and on delete', () => {
    expect(() => checkGraph([splitter], 'dc1', 'x.consul')).toThrow(/does not permit advanced routing/);
    const ok = withEntry([http], splitter);
    expect(() => checkGraph(ok, 'dc1', 'x.consul')).not.toThrow();
    expect(() => checkGraph(withEntry(ok, http, true), 'dc1', 'x.consul')).toThrow(/does not permit advanced routing/);
  });
});
