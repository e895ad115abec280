/** The 1-based position of `Name` in the tuple `T`, as a number literal type (never when absent). */
type PositionOf<
  T extends readonly string[],
  Name extends string,
  Seen extends unknown[] = [unknown],
> = T extends readonly [infer Head, ...infer Rest extends readonly string[]]
  ? Head extends Name
    ? Seen['length']
    : PositionOf<Rest, Name, [...Seen, unknown]>
  : never;

/** A numbered list by name: each name to its 1-based position. */
export type NumberByName<T extends readonly string[]> = { readonly [Name in T[number]]: PositionOf<T, Name> };
/** A numbered list by number: each 1-based position to its name. */
export type NameByNumber<T extends readonly string[]> = {
  readonly [Name in T[number] as PositionOf<T, Name>]: Name;
};

/**
 * A list of states or events that the database stores by number, 1 for the first name, as both tables
 * the code reads: `byName` (`{ registered: 1, … }`, what code that moves or filters uses) and `byNumber`
 * (`{ 1: 'registered', … }`, what a stored number is shown by), with exact literal types. One list, so the
 * two tables cannot disagree; the order of `names` is the numbering and must never change. Throws when
 * a name repeats.
 */
export function numberedNames<const T extends readonly string[]>(
  names: T,
): { byName: NumberByName<T>; byNumber: NameByNumber<T> } {
  if (new Set(names).size !== names.length) throw new Error('numberedNames: a name repeats');
  return {
    byName: Object.fromEntries(names.map((name, i) => [name, i + 1])) as NumberByName<T>,
    byNumber: Object.fromEntries(names.map((name, i) => [i + 1, name])) as NameByNumber<T>,
  };
}
