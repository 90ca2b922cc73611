import { DataSourceHandler } from '../../core/engine/handler';
import { dataSourceMetadata } from '../../core/schema';
import { secretsClient } from '../shared/engine-util';
import { issuedLease, leasedCredentials, leaseOutputs } from '../shared/lease';
import { DirectoryClient } from './directory-client';
import { DIRECTORY_LIBRARY_CHECK_OUT } from './directory-library-check-out.schema';
import { LEASES, policyPath, seg } from '../shared/policy-paths';

/** `secrets.DirectoryLibraryCheckOut`: a check-out per read, so kept in state while its lease lasts. */
export const directoryLibraryCheckOutHandler: DataSourceHandler = {
  ...dataSourceMetadata(DIRECTORY_LIBRARY_CHECK_OUT),
  // A check-out is a POST; destroy (and a replacement) checks the account in by revoking its lease.
  permissions: (s) => [policyPath(`${seg(s.mount)}/library/${seg(s.setName, 'setName')}/check-out`, 'update'), ...LEASES],
  async read(ctx, spec) {
    const c = await new DirectoryClient(secretsClient(ctx), ctx.address)
      .checkOut(spec.mount as string, spec.setName as string, spec.ttl as string | undefined);
    return { serviceAccountName: c.service_account_name, password: c.password, ...leaseOutputs(c) };
  },
  leaseOf: issuedLease,
  ...leasedCredentials('its account is checked back in (and its password rotated)'),
};
