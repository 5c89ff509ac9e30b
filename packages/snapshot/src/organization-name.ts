/** The name of an organization when none is configured (the API gives none). */
/**
 * The best name the API gives an organization, which has no name field: the e-mail domain most of
 * its users share (`acme.example`); undefined when no user has an e-mail. Ties go to the domain
 * that sorts first, so the same users always give the same name.
 *
 * @example
 * organizationNameFromUsers([{ email: 'a@acme.example' }, { email: 'b@acme.example' }]) // 'acme.example'
 */
export function organizationNameFromUsers(
  users: ReadonlyArray<{ email?: string | null }>,
): string | undefined {
  const counts = new Map<string, number>();
  for (const u of users) {
    const domain = u.email?.split('@')[1]?.trim().toLowerCase();
    if (domain) counts.set(domain, (counts.get(domain) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}
