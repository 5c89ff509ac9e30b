/** How a partition is named on disk and in a bucket, as Hive writes it (the layout and the remote store share it). */

/** The one file of a partition. Replacing it is a rename over it, which is atomic. */
export const PART_FILE = 'part-0.parquet';

/**
 * A partition value as Hive writes it: letters, digits, `_`, `.` and `-` as they are, any other
 * character as `%XX` (UTF-8 bytes).
 */
export function hiveValue(value: string): string {
  return Array.from(new TextEncoder().encode(value), (b) => {
    const c = String.fromCharCode(b);
    return /[A-Za-z0-9_.-]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
}
