/**
 * Issue 17 renamed our first enum values to Sage's: each area's `RENAMED` maps an old value to the one it
 * reads as now (null where it has none), and its upcasters apply it with `renamed`.
 */

/** Our first value -> Sage's, per enum (a value absent reads as it is). */
export type Renaming<T extends string | null = string | null> = Readonly<Record<string, T>>;

/** `value` as it reads now under `renaming`: itself when it is no old value (a current one, or absent). */
export function renamed<T>(value: T, renaming: Renaming): T {
  return typeof value === 'string' && Object.hasOwn(renaming, value) ? (renaming[value] as T) : value;
}
