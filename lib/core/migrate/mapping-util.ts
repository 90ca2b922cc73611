import { EnumMember } from './terraform-mapping';

/** The enum member for an API value: `two_factor_mandatory` -> `TWO_FACTOR_MANDATORY`. */
export function enumOf(enumName: string, value: string): EnumMember {
  return new EnumMember(enumName, value.toUpperCase().replace(/[^A-Z0-9]+/g, '_'), value);
}

/** Whether a Terraform attribute holds a value (state writes unset optional attributes as null, "" or []). */
export function isSet(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

/** The props whose values are set (undefined and unset attributes left out). */
export function setOnly(props: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(props).filter(([, v]) => isSet(v) || typeof v === 'boolean' || typeof v === 'number'));
}

/** A nested block Terraform keeps as a list of one object (`postgresql { ... }`). */
export function block(values: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const v = values[name];
  if (Array.isArray(v)) return v[0] as Record<string, unknown> | undefined;
  return v && typeof v === 'object' ? v as Record<string, unknown> : undefined;
}

/** Seconds (as the vault provider keeps TTLs) as a duration converge takes: `3600` -> `3600s`. */
export function seconds(v: unknown): string | undefined {
  return typeof v === 'number' && v > 0 ? `${v}s` : undefined;
}
