/** Amounts are kept to two decimals (cents rounded with Math.round). */
export const round2 = (n: number) => Math.round(n * 100) / 100;
