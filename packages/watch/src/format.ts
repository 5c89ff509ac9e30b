/** Figures as alerts print them: fixed formats, whatever the machine's locale. */

const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Credits as a whole number with thousands separators: `1,234,567`. */
export function credits(value: number): string {
  return WHOLE.format(Math.round(value));
}

/** A share as a whole percent: `0.834` -> `83%`. */
export function percent(share: number): string {
  return `${WHOLE.format(Math.round(share * 100))}%`;
}

/** A multiple with one decimal: `3.46` -> `3.5x`. */
export function times(multiple: number): string {
  return `${(Math.round(multiple * 10) / 10).toFixed(1)}x`;
}

/** A number rounded to `digits` decimals (figures stay numbers, just without float noise). */
export function round(value: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** How a scope is named in a sentence. */
export function scopeLabel(scope: { kind: string; name: string }): string {
  switch (scope.kind) {
    case 'organization':
      return `organization ${scope.name}`;
    case 'cost_center':
      return `cost center ${scope.name}`;
    case 'team':
      return `team ${scope.name}`;
    default:
      return scope.name;
  }
}
