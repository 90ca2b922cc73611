import { enumOf, isSet, setOnly } from '../../core/migrate/mapping-util';
import { TerraformMapping } from '../../core/migrate/terraform-mapping';
import { OAUTH_CLIENT } from '../oauth-client/oauth-client.schema';

/** `tfe_oauth_client` -> `platform.OAuthClient`; its token, private key and secret come from the environment. */
export const TFE_OAUTH_CLIENT: TerraformMapping = {
  type: 'tfe_oauth_client',
  map(r, ctx) {
    const v = r.values;
    if (isSet(v.agent_pool_id)) return { skip: 'agent_pool_id (an OAuth client reached through an agent pool) has no OAuthClient prop' };
    if (!isSet(v.oauth_token)) return { skip: 'oauth_token is not in the state (set through another attribute): the OAuth client needs it' };
    return {
      kind: OAUTH_CLIENT.kind,
      className: 'platform.OAuthClient',
      importId: String(v.id),
      props: setOnly({
        organization: ctx.organization(String(v.organization)),
        name: v.name,
        serviceProvider: enumOf('platform.VcsServiceProvider', String(v.service_provider)),
        key: v.key,
        httpUrl: v.http_url,
        apiUrl: v.api_url,
        oauthToken: ctx.secret(r, 'oauth_token', v.oauth_token),
        privateKey: isSet(v.private_key) ? ctx.secret(r, 'private_key', v.private_key) : undefined,
        secret: isSet(v.secret) ? ctx.secret(r, 'secret', v.secret) : undefined,
        rsaPublicKey: v.rsa_public_key,
        organizationScoped: v.organization_scoped,
      }),
    };
  },
};
