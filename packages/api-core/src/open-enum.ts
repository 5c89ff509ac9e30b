/** Open enumerations: a value the API adds later never breaks parsing. */
import { z } from 'zod';

/** A string whose known values are listed but which accepts any other value the API adds later. */
export function openEnum<const T extends readonly string[]>(_known: T) {
  return z.string() as unknown as z.ZodType<T[number] | (string & {})>;
}
