import { EngineClient, segment } from '../client/engine-client';

const BASE = 'identity/mfa/method/pushmfa';

/** A push-MFA method as read (`push_info` reads as `pushinfo`). */
export interface PushMfaMethodData {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly api_hostname: string;
  readonly integration_key: string;
  readonly secret_key: string;
  readonly pushinfo: string;
  readonly username_format: string;
  readonly use_passcode: boolean;
  readonly namespace_id?: string;
  readonly mount_accessor?: string;
}

/** Every write sends the whole method (the keys and hostname are required each time). */
export interface PushMfaMethodInput {
  readonly method_name?: string;
  readonly username_format?: string;
  readonly secret_key: string;
  readonly integration_key: string;
  readonly api_hostname: string;
  readonly push_info?: string;
  readonly use_passcode?: boolean;
}

/** Typed calls of the push-MFA method (`/identity/mfa/method/pushmfa`). */
export class PushMfaClient extends EngineClient {
  /** Creates a method; answers its UUID. */
  public async create(input: PushMfaMethodInput): Promise<string> {
    return (await this.call<{ method_id: string }>('POST', BASE, input))!.data.method_id;
  }

  public async update(id: string, input: PushMfaMethodInput): Promise<void> {
    await this.call('POST', `${BASE}/${segment(id, 'method id')}`, input);
  }

  public async get(id: string): Promise<PushMfaMethodData | undefined> {
    return (await this.read<PushMfaMethodData>(`${BASE}/${segment(id, 'method id')}`))?.data;
  }

  /** UUIDs of the methods; empty when none. */
  public list(): Promise<string[]> {
    return this.names(BASE);
  }

  /** Deletes a method (refused while a login enforcement uses it); success when absent. */
  public async delete(id: string): Promise<void> {
    await this.call('DELETE', `${BASE}/${segment(id, 'method id')}`);
  }
}
