/** Prints rows of [measure, value, target] as an aligned table. */
export function printTable(rows: string[][], header = ['measure', 'value', 'target']): void {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  for (const [n, row] of all.entries()) {
    process.stdout.write(
      `${row
        .map((cell, i) => (cell ?? '').padEnd(widths[i]))
        .join('  ')
        .trimEnd()}\n`,
    );
    if (n === 0) process.stdout.write(`${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  }
}
