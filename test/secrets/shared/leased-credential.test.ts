import { App, TerraformStack } from 'cdktf';
import { ConvergeTesting } from '../../../lib/core/constructs/testing';
import * as secrets from '../../../lib/secrets';
import { SECRETS_KINDS } from '../../../lib/secrets/kinds';

// One base class for every credential data source with a lease (issue 36): the lease getters are
// declared once, in `LeasedCredential`, and every kind whose outputs hold a lease extends it.

const leasedKinds = SECRETS_KINDS.dataSources.filter((h) => h.schema?.outputs?.leaseId !== undefined).map((h) => h.kind);

describe('LeasedCredential', () => {
  test('every data source whose outputs hold a lease extends it, and only those', () => {
    expect(leasedKinds.length).toBeGreaterThanOrEqual(5);
    for (const kind of leasedKinds) {
      const cls = (secrets as Record<string, unknown>)[kind.replace(/^secrets\./, '')] as { prototype: unknown };
      expect([kind, cls.prototype instanceof secrets.LeasedCredential]).toEqual([kind, true]);
    }
    for (const h of SECRETS_KINDS.dataSources.filter((d) => !leasedKinds.includes(d.kind))) {
      const cls = (secrets as Record<string, unknown>)[h.kind.replace(/^secrets\./, '')] as { prototype: unknown };
      expect([h.kind, cls.prototype instanceof secrets.LeasedCredential]).toEqual([h.kind, false]);
    }
  });

  test('a library check-out and a role\'s credentials answer the same lease references', () => {
    const stack = new TerraformStack(new App(), 'test');
    const set = secrets.DirectoryLibrarySet.fromName(stack, 'set', 'directory', 'ops');
    const role = secrets.DatabaseRole.fromName(stack, 'role', 'database', 'app');
    const lent = new secrets.DirectoryLibraryCheckOut(stack, 'lent', { librarySet: set, ttl: '1h' });
    const creds = new secrets.DatabaseCredentials(stack, 'creds', { role });
    new secrets.KvSecret(stack, 'leases', {
      path: 'leases',
      data: { lentId: lent.leaseId, lentEnd: lent.leaseExpiresAt, credsId: creds.leaseId, credsStart: creds.leaseStartTime },
    });
    const d = ConvergeTesting.desiredState(stack);
    expect(d.resources.leases.spec.data).toEqual({
      lentId: { $ref: 'lent', attr: 'leaseId' }, lentEnd: { $ref: 'lent', attr: 'leaseExpiresAt' },
      credsId: { $ref: 'creds', attr: 'leaseId' }, credsStart: { $ref: 'creds', attr: 'leaseStartTime' },
    });
    expect(creds.mount).toBe('database');
    expect(creds.roleName).toBe('app');
  });
});
