/**
 * The chain's `CustomizationHash`: the first 8 hex digits (Go `%x`, not zero-padded) of
 * `mitchellh/hashstructure` v1 over the anonymous struct
 * `{OverrideMeshGateway MeshGatewayConfig; OverrideProtocol string; OverrideConnectTimeout time.Duration}`,
 * with the overrides that changed nothing zeroed. hashstructure v1 uses FNV-1 64-bit; a string
 * hashes its bytes; an int64 its 8 little-endian bytes; a struct is hash(type name) XOR, per
 * field, FNV-1(le64(hash(field name)) ++ le64(hash(value))).
 */

const OFFSET = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

function fnv1(bytes: Uint8Array): bigint {
  let h = OFFSET;
  for (const b of bytes) {
    h = (h * PRIME) & MASK;
    h ^= BigInt(b);
  }
  return h;
}

function le64(v: bigint): Uint8Array {
  const out = new Uint8Array(8);
  let x = BigInt.asUintN(64, v);
  for (let i = 0; i < 8; i++) { out[i] = Number(x & 0xffn); x >>= 8n; }
  return out;
}

function hashString(s: string): bigint {
  return fnv1(new TextEncoder().encode(s));
}

function hashOrdered(a: bigint, b: bigint): bigint {
  const bytes = new Uint8Array(16);
  bytes.set(le64(a), 0);
  bytes.set(le64(b), 8);
  return fnv1(bytes);
}

type HashValue = { str: string } | { int64: number } | { struct: string; fields: [string, HashValue][] };

function hashValue(v: HashValue): bigint {
  if ('str' in v) return hashString(v.str);
  if ('int64' in v) return fnv1(le64(BigInt(v.int64)));
  let h = hashString(v.struct);
  for (const [name, value] of v.fields) h ^= hashOrdered(hashString(name), hashValue(value));
  return h;
}

/** The overrides that changed the compiled result (the others are zero). */
export interface Customization {
  readonly meshGatewayMode: string;
  readonly protocol: string;
  readonly connectTimeoutNs: number;
}

/** The 64-bit hashstructure value (exported for tests). */
export function customizationHash64(c: Customization): bigint {
  return hashValue({
    struct: '',
    fields: [
      ['OverrideMeshGateway', { struct: 'MeshGatewayConfig', fields: [['Mode', { str: c.meshGatewayMode }]] }],
      ['OverrideProtocol', { str: c.protocol }],
      ['OverrideConnectTimeout', { int64: c.connectTimeoutNs }],
    ],
  });
}

/** `fmt.Sprintf("%x", hash)[0:8]`. */
export function customizationHash(c: Customization): string {
  return customizationHash64(c).toString(16).slice(0, 8);
}
