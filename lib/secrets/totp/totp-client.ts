import { EngineClient, mountPath, segment } from '../client/engine-client';

export type TotpAlgorithm = 'SHA1' | 'SHA256' | 'SHA512';

/** A key as read (`GET {mount}/keys/<name>`): its public fields. */
export interface TotpKeyData {
  readonly account_name: string;
  readonly algorithm: TotpAlgorithm;
  readonly digits: number;
  readonly issuer: string;
  /** Seconds. */
  readonly period: number;
}

/** Parameters of a key the service generates. */
export interface TotpGenerateInput {
  readonly issuer: string;
  readonly account_name: string;
  /** @default true: answer the URL and barcode */
  readonly exported?: boolean;
  /** Bytes. @default 20 */
  readonly key_size?: number;
  /** Pixels; 0: no barcode. @default 200 */
  readonly qr_size?: number;
  /** Seconds or a duration string. @default 30 */
  readonly period?: number | string;
  readonly algorithm?: TotpAlgorithm;
  /** 6 or 8. */
  readonly digits?: number;
  /** 0 or 1. @default 1 */
  readonly skew?: number;
}

/** Parameters of an imported key: `key` (base32) or `url` (otpauth). */
export interface TotpImportInput {
  readonly key?: string;
  readonly url?: string;
  readonly issuer?: string;
  readonly account_name?: string;
  readonly period?: number | string;
  readonly algorithm?: TotpAlgorithm;
  readonly digits?: number;
  readonly skew?: number;
}

/** What a generated, exported key answers: its otpauth URL and (unless `qr_size` 0) a base64 PNG. */
export interface TotpGenerated {
  readonly url: string;
  readonly barcode?: string;
}

/** Typed calls of the TOTP engine. */
export class TotpClient extends EngineClient {
  /** Generates a key; answers the URL and barcode when exported, else undefined. */
  public async generateKey(mount: string, name: string, input: TotpGenerateInput): Promise<TotpGenerated | undefined> {
    return (await this.call<TotpGenerated>('POST', this.keyPath(mount, name), { ...input, generate: true }))?.data;
  }

  /** Stores a key given as base32 `key` or otpauth `url`. */
  public async importKey(mount: string, name: string, input: TotpImportInput): Promise<void> {
    await this.call('POST', this.keyPath(mount, name), { ...input, generate: false });
  }

  public async readKey(mount: string, name: string): Promise<TotpKeyData | undefined> {
    return (await this.read<TotpKeyData>(this.keyPath(mount, name)))?.data;
  }

  /** Key names; empty when none. */
  public listKeys(mount: string): Promise<string[]> {
    return this.names(`${mountPath(mount)}/keys`);
  }

  /** Deletes a key; success when already gone. */
  public async deleteKey(mount: string, name: string): Promise<void> {
    await this.call('DELETE', this.keyPath(mount, name));
  }

  /** The key's current code. */
  public async generateCode(mount: string, name: string): Promise<string> {
    return (await this.call<{ code: string }>('GET', this.codePath(mount, name)))!.data.code;
  }

  /** Whether a code is valid now; a code already used in its window throws (400). */
  public async validateCode(mount: string, name: string, code: string): Promise<boolean> {
    return (await this.call<{ valid: boolean }>('POST', this.codePath(mount, name), { code }))!.data.valid;
  }

  private keyPath(mount: string, name: string): string {
    return `${mountPath(mount)}/keys/${segment(name)}`;
  }

  private codePath(mount: string, name: string): string {
    return `${mountPath(mount)}/code/${segment(name)}`;
  }
}
