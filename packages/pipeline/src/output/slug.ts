/** A file-name-safe form of a name, shared by the commands that name files or folders after one. */

/** Lower-case letters, digits and dashes: `Acme Corp.` -> `acme-corp` (at most 60 characters). */
export function fileSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'organization';
}
