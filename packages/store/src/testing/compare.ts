/**
 * Differences between two JSON values, as paths: numbers may differ by floating-point rounding
 * (sums taken in another order) up to a relative 1e-9; everything else must be equal.
 */
export function jsonDifferences(a: unknown, b: unknown, path = '$', out: string[] = []): string[] {
  if (out.length >= 20) return out;
  if (typeof a === 'number' && typeof b === 'number') {
    const scale = Math.max(Math.abs(a), Math.abs(b), 1e-300);
    if (a !== b && !(Math.abs(a - b) / scale <= 1e-9)) out.push(`${path}: ${a} != ${b}`);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}: length ${a.length} != ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) jsonDifferences(a[i], b[i], `${path}[${i}]`, out);
    return out;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const x = (a as Record<string, unknown>)[k];
      const y = (b as Record<string, unknown>)[k];
      if (x === undefined && y === undefined) continue;
      jsonDifferences(x, y, `${path}.${k}`, out);
    }
    return out;
  }
  if (a !== b) out.push(`${path}: ${JSON.stringify(a)?.slice(0, 80)} != ${JSON.stringify(b)?.slice(0, 80)}`);
  return out;
}
