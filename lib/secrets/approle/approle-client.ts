import { encodePath } from '../../core/http/http-client';
import { SecretsClient, SecretsEnvelope } from '../client/secrets-client';

/** A secret id just issued (`POST auth/<mount>/role/<name>/secret-id`). */
export interface IssuedSecretId {
  readonly secret_id: string;
  readonly secret_id_accessor: string;
  readonly secret_id_ttl: number;
  readonly secret_id_num_uses: number;
}

/** The AppRole auth method's calls below `auth/<mount>/` (the real service's; the spec is silent). */
export class AppRoleClient {
  constructor(private readonly client: SecretsClient, private readonly constructPath?: string) {}

  private rolePath(mount: string, name: string): string {
    return `auth/${encodePath(mount)}/role/${encodePath(name)}`;
  }

  /** The role's fields, or undefined (404). */
  public async readRole(mount: string, name: string): Promise<Record<string, unknown> | undefined> {
    const res = await this.client.request<SecretsEnvelope<Record<string, unknown>>>({
      method: 'GET', path: this.rolePath(mount, name), accept: [404], constructPath: this.constructPath,
    });
    return res.status === 404 ? undefined : res.body.data;
  }

  public async readRoleId(mount: string, name: string): Promise<string | undefined> {
    const res = await this.client.request<SecretsEnvelope<{ role_id: string }>>({
      method: 'GET', path: `${this.rolePath(mount, name)}/role-id`, accept: [404], constructPath: this.constructPath,
    });
    return res.status === 404 ? undefined : res.body.data.role_id;
  }

  public async writeRole(mount: string, name: string, body: Record<string, unknown>): Promise<void> {
    await this.client.request({ method: 'POST', path: this.rolePath(mount, name), body, constructPath: this.constructPath });
  }

  public async deleteRole(mount: string, name: string): Promise<void> {
    await this.client.request({ method: 'DELETE', path: this.rolePath(mount, name), accept: [404], constructPath: this.constructPath });
  }

  public async issueSecretId(mount: string, name: string): Promise<IssuedSecretId> {
    const res = await this.client.request<SecretsEnvelope<IssuedSecretId>>({
      method: 'POST', path: `${this.rolePath(mount, name)}/secret-id`, body: {}, constructPath: this.constructPath,
    });
    return res.body.data;
  }

  /** Whether a secret id (by its accessor) still lives: the service answers 404 for one expired or destroyed. */
  public async secretIdAlive(rolePath: string, accessor: string): Promise<boolean> {
    const res = await this.client.request({
      method: 'POST', path: `${rolePath}/secret-id-accessor/lookup`, body: { secret_id_accessor: accessor }, accept: [404], constructPath: this.constructPath,
    });
    return res.status !== 404;
  }

  public async destroySecretId(rolePath: string, accessor: string): Promise<void> {
    await this.client.request({
      method: 'POST', path: `${rolePath}/secret-id-accessor/destroy`, body: { secret_id_accessor: accessor }, constructPath: this.constructPath,
    });
  }
}
