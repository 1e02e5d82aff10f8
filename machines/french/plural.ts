/**
 * A count and its noun as French writes them: « 0 compte », « 1 compte », « 14 comptes » (French
 * takes the singular below two). Never « compte(s) ».
 */
export const plural = (n: number, one: string, many: string): string => (Math.abs(n) >= 2 ? many : one);

export const count = (n: number, one: string, many: string): string => `${n} ${plural(n, one, many)}`;
