import type { z } from 'zod';

/** A zod error in one line: each issue as `path: message`, for messages people and agents read. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}
