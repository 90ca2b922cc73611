import { SecretsClient, SecretsEnvelope } from './secrets-client';

/** Shared calls of the engine clients: reads that answer undefined on 404, writes, lists. */
export abstract class EngineClient {
  constructor(protected readonly secrets: SecretsClient, protected readonly constructPath?: string) {}

  /** GET; undefined when absent (404). */
  protected async read<T>(path: string): Promise<SecretsEnvelope<T> | undefined> {
    const res = await this.secrets.request<SecretsEnvelope<T>>({ method: 'GET', path, accept: [404], constructPath: this.constructPath });
    return res.status === 404 ? undefined : res.body;
  }

  /** A call whose answer is the whole envelope (undefined for 204). */
  protected async call<T>(method: string, path: string, body?: unknown): Promise<SecretsEnvelope<T> | undefined> {
    const res = await this.secrets.request<SecretsEnvelope<T> | undefined>({ method, path, body, constructPath: this.constructPath });
    return res.status === 204 ? undefined : res.body;
  }

  protected names(path: string): Promise<string[]> {
    return this.secrets.list(path, this.constructPath);
  }
}
