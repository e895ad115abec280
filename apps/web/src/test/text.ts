/** Text without the narrow and non-breaking spaces Intl puts into amounts: as a test writes it. */
export const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ');
