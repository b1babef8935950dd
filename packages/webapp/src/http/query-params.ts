import { z } from 'zod';

/** `a,b , c` → `['a', 'b', 'c']`; absent or empty → `[]`. */
export const commaList = z
  .string()
  .optional()
  .transform((v) =>
    v
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [],
  );

export const optionalDate = z.iso.datetime({ offset: true }).optional();
