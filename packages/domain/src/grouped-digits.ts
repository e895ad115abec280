/**
 * The integer part of a typed number (an amount or a quantity): plain digits, or groups (first 1-3
 * digits, then exactly 3) joined by one kind of separator, spaces or `grouping`, never both. An empty
 * integer part (".5", ",5") counts as zero. Returns the digits, or null for misplaced groups such as
 * "12 34". Internal to the package: `money` and `quantity` read their integer parts with it.
 */
export function readGroupedInteger(text: string, grouping: '.' | ','): string | null {
  if (text === '') return '0';
  if (/^[0-9]+$/.test(text)) return text;
  const hasSpace = text.includes(' ');
  const hasGrouping = text.includes(grouping);
  if (hasSpace === hasGrouping) return null;
  const groups = text.split(hasSpace ? ' ' : grouping);
  const [head, ...tail] = groups;
  if (head === undefined || !/^[0-9]{1,3}$/.test(head)) return null;
  if (!tail.every((g) => /^[0-9]{3}$/.test(g))) return null;
  return groups.join('');
}
